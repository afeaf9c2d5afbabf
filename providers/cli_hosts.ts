/**
 * What each worker CLI can be pointed at, and where it goes on its own, from the `network` entry of its
 * record (adapters/clis/). A CLI that takes a base URL can run behind the forwarder (the key stays outside);
 * one that cannot, or that logs in with OAuth, can only run behind the allowlist proxy, reaching its hosts.
 * The hosts are the ones each CLI's documentation names for its default service and login; this machine
 * reaches none of them, so they are not verified here, and a profile's `egressHosts` replaces them.
 */
import { CLI_RECORDS, type CliRecord } from "../adapters/clis/mod.ts";

const online = (r: CliRecord) => "offline" in r.network ? null : r.network;

/** Adapters whose launch plan passes `baseUrl` on to the CLI (see each adapter's plan). */
export const TAKES_BASE_URL: ReadonlySet<string> = new Set(
  CLI_RECORDS.filter((r) => online(r)?.takesBaseUrl).map((r) => r.name),
);

/** Adapters that need no network at all. */
export const OFFLINE_ADAPTERS: ReadonlySet<string> = new Set(
  CLI_RECORDS.filter((r) => online(r) === null).map((r) => r.name),
);

/** `host:port` each CLI reaches for its own service and login when it is not given a base URL. */
export const DEFAULT_CLI_HOSTS: Record<string, string[]> = Object.fromEntries(
  CLI_RECORDS.flatMap((r) => {
    const hosts = online(r)?.hosts ?? [];
    return hosts.length > 0 ? [[r.name, [...hosts]]] : [];
  }),
);
