/**
 * The validated config, kept in the cache dir with everything that made it: the file's path and text, the
 * text of every module that validates it (config/parse.ts and its imports) and deno.json (spot's version and
 * the pinned npm packages). An entry answers only when all of that is equal. Any change to one of them is a miss, and the text is validated again. Reading the
 * sources costs well under a millisecond; loading zod and jsonc-parser to validate costs tens (see
 * docs/performance.md). When a source cannot be read (a compiled binary), nothing is cached.
 */
import { join } from "../base/path.ts";
import { readCacheEntry, writeCacheEntry } from "../base/cache_dir.ts";
import type { LoadedConfig } from "./loaded.ts";

/**
 * config/parse.ts and every local module it imports; config/cache_test.ts holds this list to the graph. A
 * folder (ending in "/") stands for every source file in it: the worker CLI records, so that adding a CLI
 * adds no line here.
 */
export const VALIDATING_SOURCES = [
  "./parse.ts",
  "./defaults.ts",
  "./legacy.ts",
  "./loaded.ts",
  "../schemas/config.ts",
  "../schemas/locate.ts",
  "../schemas/task_contract.ts",
  "../schemas/constants.ts",
  "../schemas/events.ts",
  "../schemas/usage_sum.ts",
  "../errors.ts",
  "../base/path.ts",
  "../adapters/types.ts",
  "../adapters/capabilities/settings.ts",
  "../adapters/capabilities/routes.ts",
  "../adapters/clis/",
  // What the records' launch plans import, and (as types only) their stream readers.
  "../adapters/plan_util.ts",
  "../adapters/opencode_config.ts",
  "../adapters/streams/",
  "../base/lazy.ts",
  "../base/timings.ts",
  "../deno.json",
];

/** The files VALIDATING_SOURCES names, folders expanded (sorted, tests left out); relative to this file. */
export function validatingFiles(): string[] {
  return VALIDATING_SOURCES.flatMap((entry) => {
    if (!entry.endsWith("/")) return [entry];
    return [...Deno.readDirSync(new URL(entry, import.meta.url))]
      .filter((e) => e.isFile && e.name.endsWith(".ts") && !e.name.endsWith("_test.ts"))
      .map((e) => entry + e.name)
      .sort();
  });
}

export interface CacheSlot {
  dir: string;
  /** Everything the validated config depends on, compared whole against a stored entry's. */
  inputs: string;
}

function codeStamp(): string | null {
  try {
    return validatingFiles().map((s) => `${s}\n${Deno.readTextFileSync(new URL(s, import.meta.url))}`).join(
      "\0",
    );
  } catch {
    return null;
  }
}

/** The cached result for this text (`hit`), or where to keep it once validated; null: do not cache. */
export function cachedConfig(
  cacheRoot: string,
  file: string,
  text: string,
): { hit: LoadedConfig | null; slot: CacheSlot } | null {
  const stamp = codeStamp();
  if (stamp === null) return null;
  const slot = { dir: join(cacheRoot, "config"), inputs: [file, text, stamp].join("\0") };
  const hit = readCacheEntry<LoadedConfig>(slot.dir, slot.inputs);
  return { hit: hit?.config ? hit : null, slot };
}

/** Keeps a validated config; a cache that cannot be written only costs the next call its validation. */
export async function saveCachedConfig(slot: CacheSlot, loaded: LoadedConfig): Promise<void> {
  await writeCacheEntry(slot.dir, slot.inputs, loaded);
}
