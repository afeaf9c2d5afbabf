/**
 * The validated config, kept in the cache dir with everything that made it: the file's path and text, and the
 * identity of every module that validates it (config/parse.ts and its imports) and of deno.json (spot's
 * version and the pinned npm packages). An entry answers only when all of that is equal. A module's identity
 * is its inode, size and change times, not its text: any write of it (an edit, a checkout, an update) gives
 * it a new ctime, so it is a miss and the text is validated again. Stating the ~45 files costs well under a
 * millisecond; reading and comparing their text cost ~9 ms a verb, and loading zod and jsonc-parser to
 * validate costs tens (see docs/performance.md). When a source cannot be stated (a compiled binary), nothing
 * is cached.
 */
import { join } from "../base/path.ts";
import { quickHash, readCacheEntry, writeCacheEntry } from "../base/cache_dir.ts";
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
  /** The entry's file name: the config file and its text (a code change replaces that entry). */
  name: string;
}

/** Each validating file's identity: device and inode, size, and modification and change times (ms). */
function codeStamp(): string | null {
  try {
    return validatingFiles().map((s) => {
      const info = Deno.statSync(new URL(s, import.meta.url));
      if (info.ino === null || info.mtime === null || info.ctime === null) throw new Error("no identity");
      return `${s} ${info.dev}:${info.ino} ${info.size} ${info.mtime.getTime()} ${info.ctime.getTime()}`;
    }).join("\n");
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
  const slot = {
    dir: join(cacheRoot, "config"),
    inputs: [file, text, stamp].join("\0"),
    name: quickHash(`${file}\0${text}`),
  };
  const hit = readCacheEntry<LoadedConfig>(slot.dir, slot.inputs, slot.name);
  return { hit: hit?.config ? hit : null, slot };
}

/** Keeps a validated config; a cache that cannot be written only costs the next call its validation. */
export async function saveCachedConfig(slot: CacheSlot, loaded: LoadedConfig): Promise<void> {
  await writeCacheEntry(slot.dir, slot.inputs, loaded, slot.name);
}
