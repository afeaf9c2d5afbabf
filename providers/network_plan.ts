/**
 * How a worker reaches its provider from inside the OS sandbox, decided once from the profile and what the
 * user has configured, so `doctor`, `prepare` and `run` give the same answer. Pure.
 *
 * - `forwarder`: the CLI is pointed at spot's forwarder, which holds the key and passes only the provider's
 *   API routes. Needs a CLI that takes a base URL and an upstream URL: the profile's `baseUrl`, else (for a
 *   keyed profile) the provider's entry in the user's pi `models.json`, else the config's provider table.
 * - `allowlist`: the CLI talks to its own hosts through spot's egress proxy, which allows `CONNECT` to the
 *   listed `host:port`s and nothing else. TLS is end to end, so a key or login the CLI uses is inside the
 *   sandbox with it. For OAuth CLIs and CLIs that take no base URL.
 * - `offline`: the worker needs no network (the replay worker).
 * - `unreachable`: neither applies; the plan says what was tried and the fix.
 */
import type { ProviderType } from "../adapters/types.ts";
import { DEFAULT_CLI_HOSTS, OFFLINE_ADAPTERS, TAKES_BASE_URL } from "./cli_hosts.ts";
import type { Endpoint } from "./endpoints.ts";
import type { PiProvider } from "./pi_home.ts";

export type EgressChoice = "auto" | "forwarder" | "allowlist";

export interface NetworkProfile {
  name: string;
  adapter: string;
  provider: string;
  apiKeyEnv?: string;
  baseUrl?: string;
  providerType?: ProviderType;
  egress?: EgressChoice;
  egressHosts?: string[];
}

export interface NetworkFacts {
  /** The user's pi providers (null: no models.json). */
  piProviders: Record<string, PiProvider> | null;
  /** The config's provider table, defaults included. */
  endpoints: Record<string, Endpoint>;
}

export type UpstreamSource = "profile" | "pi-models" | "provider-table";

export type NetworkPlan =
  | { mode: "offline" }
  | { mode: "forwarder"; upstream: string; providerType?: ProviderType; source: UpstreamSource }
  | {
    mode: "allowlist";
    hosts: string[];
    source: "profile" | "base-url" | "cli-defaults" | "provider-table";
    keyInSandbox: boolean;
  }
  | { mode: "unreachable"; tried: "forwarder" | "allowlist"; reason: string; fix: string };

/** `host:port` of a URL, the scheme's port when it names none. */
export function hostPort(url: string): string {
  const u = new URL(url);
  return `${u.hostname.replace(/^\[|\]$/g, "")}:${u.port || (u.protocol === "https:" ? "443" : "80")}`;
}

function upstreamOf(p: NetworkProfile, facts: NetworkFacts) {
  if (p.baseUrl) return { upstream: p.baseUrl, providerType: p.providerType, source: "profile" as const };
  // A key the forwarder can hold, for a provider someone has written down: pi's models.json, then the table.
  if (!p.apiKeyEnv) return null;
  const pi = p.adapter === "pi" ? facts.piProviders?.[p.provider] : undefined;
  if (pi?.baseUrl) {
    return {
      upstream: pi.baseUrl,
      providerType: p.providerType ?? pi.providerType,
      source: "pi-models" as const,
    };
  }
  const known = facts.endpoints[p.provider];
  if (known) {
    return {
      upstream: known.baseUrl,
      providerType: p.providerType ?? known.providerType,
      source: "provider-table" as const,
    };
  }
  return null;
}

function allowlistOf(p: NetworkProfile, facts: NetworkFacts) {
  if (p.egressHosts?.length) return { hosts: p.egressHosts, source: "profile" as const };
  if (p.baseUrl) return { hosts: [hostPort(p.baseUrl)], source: "base-url" as const };
  const hosts = DEFAULT_CLI_HOSTS[p.adapter];
  if (hosts?.length) return { hosts, source: "cli-defaults" as const };
  // A login-based profile of a CLI with no hosts of its own (pi signed in to a built-in provider).
  const known = facts.endpoints[p.provider];
  return known ? { hosts: [hostPort(known.baseUrl)], source: "provider-table" as const } : null;
}

export function planNetwork(p: NetworkProfile, facts: NetworkFacts): NetworkPlan {
  if (OFFLINE_ADAPTERS.has(p.adapter)) return { mode: "offline" };
  const choice = p.egress ?? "auto";
  const at = `profiles.${p.name}`;
  const takesUrl = TAKES_BASE_URL.has(p.adapter);
  const up = takesUrl ? upstreamOf(p, facts) : null;
  if (choice !== "allowlist" && up) return { mode: "forwarder", ...up };
  if (choice === "forwarder") {
    const reason = !takesUrl
      ? `the ${p.adapter} CLI cannot be given a base URL`
      : `no upstream URL is known for provider "${p.provider}"` +
        (p.apiKeyEnv ? "" : " (the forwarder fills in a key, and the profile has no apiKeyEnv)");
    return {
      mode: "unreachable",
      tried: "forwarder",
      reason,
      fix: takesUrl
        ? `set ${at}.baseUrl to the provider's API root`
        : `set ${at}.egress to "allowlist" with ${at}.egressHosts`,
    };
  }
  const allow = allowlistOf(p, facts);
  if (allow) return { mode: "allowlist", ...allow, keyInSandbox: p.apiKeyEnv !== undefined };
  return {
    mode: "unreachable",
    tried: p.apiKeyEnv && takesUrl ? "forwarder" : "allowlist",
    reason: p.apiKeyEnv && takesUrl
      ? `no upstream URL is known for provider "${p.provider}" (not in the profile, pi's models.json or providerEndpoints)`
      : `no hosts are known for the ${p.adapter} CLI`,
    fix: p.apiKeyEnv && takesUrl
      ? `set ${at}.baseUrl to the provider's API root, or add "${p.provider}" to providerEndpoints`
      : `set ${at}.egressHosts to the host:port pairs the CLI needs`,
  };
}

/** One line for a person: how the worker reaches its provider, or why it cannot. */
export function describeNetwork(plan: NetworkPlan): string {
  switch (plan.mode) {
    case "offline":
      return "needs no network";
    case "forwarder":
      return `forwarder to ${plan.upstream} (from ${plan.source}; the key stays outside the sandbox)`;
    case "allowlist":
      return `allowlist proxy to ${plan.hosts.join(", ")} (from ${plan.source}` +
        `${plan.keyInSandbox ? "; the key is inside the sandbox" : ""})`;
    case "unreachable":
      return `no route (${plan.tried}): ${plan.reason}`;
  }
}
