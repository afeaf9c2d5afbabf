/**
 * Which worker CLIs are installed and which profiles have their key. A key is
 * reported as present or absent, with the `export` line that would set it,
 * and its value never leaves the environment.
 */
import { getAdapter } from "../adapters/mod.ts";
import type { EnvReader } from "../store/paths.ts";
import { stripTerminal } from "../store/worker_log.ts";
import type { Config } from "../schemas/config.ts";
import { type ProcessResult, spawnProcess } from "../sandbox/spawn.ts";
import { locateBinary } from "../registry/locate.ts";

/** A CLI that cannot print its version in this long is reported without one. */
export const VERSION_TIMEOUT_MS = 5_000;

export interface AdapterStatus {
  name: string;
  known: boolean;
  binary: string | null;
  installed: boolean;
  version: string | null;
  /** A profile the user routes to runs on it: missing, it is a problem; otherwise only available to install. */
  needed: boolean;
}

export interface ProfileStatus {
  name: string;
  adapter: string;
  provider: string;
  model: string;
  isDefault: boolean;
  apiKeyEnv: string | null;
  credentialPresent: boolean | null;
  /** What to type to set the key, with a placeholder in place of the value. */
  exportHint: string | null;
  why: string[];
  /**
   * The user routes work to it: a run used it, a caller starts from it, it is a fallback of one that does, or
   * (before any run) it is the default or one of its fallbacks. A missing key is a warning only then.
   */
  routed: boolean;
}

export interface Connections {
  generatedAt: string;
  adapters: AdapterStatus[];
  profiles: ProfileStatus[];
}

export type VersionRunner = (
  argv: string[],
) => Promise<Pick<ProcessResult, "exitCode" | "stdout" | "stderr">>;

export interface ProbeInput {
  config: Config;
  env: EnvReader;
  /** Profiles named by past runs. */
  usedProfiles: Set<string>;
  now: () => string;
  runVersion?: VersionRunner;
}

function defaultRunner(env: EnvReader): VersionRunner {
  return (argv) =>
    spawnProcess(argv, {
      env: { PATH: env("PATH") ?? "", HOME: env("HOME") ?? "/", LANG: "C.UTF-8", NO_COLOR: "1" },
      timeoutMs: VERSION_TIMEOUT_MS,
      maxOutputChars: 4_000,
    });
}

function firstLine(text: string): string | null {
  const line = stripTerminal(text).split("\n").map((l) => l.trim()).find((l) => l !== "");
  return line ? line.slice(0, 80) : null;
}

async function adapterStatus(
  name: string,
  input: ProbeInput & { needed: boolean },
  run: VersionRunner,
): Promise<AdapterStatus> {
  const needed = input.needed;
  const adapter = getAdapter(name);
  if (!adapter) return { name, known: false, binary: null, installed: false, version: null, needed };
  const profileBinary = Object.values(input.config.profiles).find((p) => p.adapter === name && p.binary)
    ?.binary;
  const binary = locateBinary(name, adapter, { env: input.env, profileBinary }).binary;
  if (!binary) return { name, known: true, binary: null, installed: false, version: null, needed };
  if (name === "replay") return { name, known: true, binary, installed: true, version: "built-in", needed };
  const r = await run([binary, ...(adapter.detect?.versionArgs ?? ["--version"])]);
  const out = r.exitCode === 0 ? r.stdout || r.stderr : "";
  const version = adapter.detect?.parseVersion ? adapter.detect.parseVersion(out) : firstLine(out);
  return { name, known: true, binary, installed: true, version, needed };
}

/** The profiles the user routes work to, with the fallbacks each can hand over to (see ProfileStatus.routed). */
export function routedProfiles(config: Config, usedProfiles: ReadonlySet<string>): Set<string> {
  const start = [...usedProfiles, ...Object.values(config.callerProfiles ?? {})];
  if (usedProfiles.size === 0) start.push(config.defaultProfile);
  const out = new Set<string>();
  const visit = (name: string) => {
    if (out.has(name) || !config.profiles[name]) return;
    out.add(name);
    for (const next of config.profiles[name].fallbackProfiles ?? []) visit(next);
  };
  for (const name of start) if (typeof name === "string") visit(name);
  return out;
}

/** The seed's rule: a profile matters if it is the default, reachable from it, has its key, or was used. */
function profileStatuses(input: ProbeInput, routed: ReadonlySet<string>): ProfileStatus[] {
  const { config, env } = input;
  const reachable = new Set(config.profiles[config.defaultProfile]?.fallbackProfiles ?? []);
  const out: ProfileStatus[] = [];
  for (const [name, p] of Object.entries(config.profiles)) {
    const present = p.apiKeyEnv ? Boolean(env(p.apiKeyEnv)) : null;
    const why = [
      name === config.defaultProfile ? "default" : "",
      reachable.has(name) ? "fallback of the default" : "",
      present ? "key set" : "",
      input.usedProfiles.has(name) ? "used by a run" : "",
    ].filter((w) => w !== "");
    if (why.length === 0) continue;
    out.push({
      name,
      adapter: p.adapter,
      provider: p.provider,
      model: p.model,
      isDefault: name === config.defaultProfile,
      apiKeyEnv: p.apiKeyEnv ?? null,
      credentialPresent: present,
      exportHint: p.apiKeyEnv ? `export ${p.apiKeyEnv}=YOUR_KEY_HERE` : null,
      why,
      routed: routed.has(name),
    });
  }
  return out;
}

export async function probeConnections(input: ProbeInput): Promise<Connections> {
  const run = input.runVersion ?? defaultRunner(input.env);
  const names = [...new Set(["pi", "replay", ...Object.values(input.config.profiles).map((p) => p.adapter)])];
  const routed = routedProfiles(input.config, input.usedProfiles);
  const neededAdapters = new Set([...routed].map((p) => input.config.profiles[p].adapter));
  const adapters = await Promise.all(
    names.map((n) => adapterStatus(n, { ...input, needed: neededAdapters.has(n) }, run)),
  );
  return { generatedAt: input.now(), adapters, profiles: profileStatuses(input, routed) };
}
