/**
 * `spot detect`: probe every worker CLI that has a record (adapters/clis/) and is not built in, cache the
 * answer in `registry.json` for 10 minutes, and give Qoder's rows their prices.
 */
import { join } from "../base/path.ts";
import { CLI_RECORDS, cliRecord } from "../adapters/clis/mod.ts";
import { binaryEnvName, type EnvReader } from "./locate.ts";
import { probeCli, type Probed, type ProbeRunner } from "./probe.ts";
import { withCatalogPrices } from "./qoder_catalog_load.ts";
import type { Registry } from "./types.ts";

/** The seed's registry lifetime: dispatch stays cheap, and a new install shows up soon enough. */
export const REGISTRY_TTL_MS = 10 * 60_000;

/** Every CLI `spot detect` probes: each record's but the built-in worker's, in record order. */
export const KNOWN_ADAPTERS: readonly string[] = CLI_RECORDS.filter((r) => !r.builtIn).map((r) => r.name);

export interface DetectOptions {
  cacheRoot: string;
  env: EnvReader;
  /** Adapter names from the user's profiles, probed too. */
  extraAdapters?: string[];
  /** Ignore a fresh cache. */
  refresh?: boolean;
  run?: ProbeRunner;
  now?: () => number;
  fetch?: typeof fetch;
  /** Tests pass their own CLIs instead of the records'. */
  adapters?: Record<string, Probed>;
}

export function registryFile(cacheRoot: string): string {
  return join(cacheRoot, "registry.json");
}

function adapterTable(options: DetectOptions): [string, Probed][] {
  if (options.adapters) return Object.entries(options.adapters);
  const names = [...new Set([...KNOWN_ADAPTERS, ...(options.extraAdapters ?? [])])];
  return names.flatMap((name) => {
    const record = cliRecord(name);
    return record && !record.builtIn ? [[name, record] as [string, Probed]] : [];
  });
}

async function envKey(names: string[], env: EnvReader): Promise<string> {
  const parts = ["PATH", "HOME", ...names.map(binaryEnvName)].map((n) => `${n}=${env(n) ?? ""}`);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(parts.join("\n")));
  return Array.from(new Uint8Array(digest).slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function readFresh(file: string, key: string, now: number): Promise<Registry | null> {
  try {
    const cached = JSON.parse(await Deno.readTextFile(file)) as Registry;
    const age = now - Date.parse(cached.detectedAt);
    return cached.schemaVersion === 1 && cached.envKey === key && age >= 0 && age < REGISTRY_TTL_MS
      ? cached
      : null;
  } catch {
    return null;
  }
}

async function save(file: string, registry: Registry): Promise<void> {
  const tmp = `${file}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(registry, null, 2) + "\n");
  await Deno.rename(tmp, file);
}

export async function detect(options: DetectOptions): Promise<{ registry: Registry; cached: boolean }> {
  const now = (options.now ?? Date.now)();
  const table = adapterTable(options);
  const key = await envKey(table.map(([n]) => n), options.env);
  const file = registryFile(options.cacheRoot);
  if (!options.refresh) {
    const fresh = await readFresh(file, key, now);
    if (fresh) return { registry: fresh, cached: true };
  }
  const clis = await Promise.all(
    table.map(async ([name, cli]) => withCatalogPrices(await probeCli(name, cli, options), options)),
  );
  const registry: Registry = { schemaVersion: 1, detectedAt: new Date(now).toISOString(), envKey: key, clis };
  await Deno.mkdir(options.cacheRoot, { recursive: true });
  // A read-only cache costs a re-probe next time, not the answer.
  await save(file, registry).catch(() => {});
  return { registry, cached: false };
}
