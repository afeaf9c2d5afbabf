/**
 * Loads the user's config (JSONC allowed), creating it with defaults on first use. A config validated before,
 * with the same text and the same validating code, comes from the cache (config/cache.ts) without loading
 * zod; anything else is validated by config/parse.ts. A process that loads the config more than once (a resident
 * `spot mcp`, the dashboard, a job's coordinator) keeps the last validated config of each file in memory and
 * answers from it while the file's text is the same: the text is read again on every load, so an edit is
 * seen at the next call, and the code that validated it is the code still running.
 */
import { dirname } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import type { LoadedConfig } from "./loaded.ts";
import { cachedConfig, saveCachedConfig } from "./cache.ts";
import { writeTextAtomic } from "../store/files.ts";
import { lazy } from "../base/lazy.ts";

export { type ConfigWarning, type FileWarning, formatWarning, type LoadedConfig } from "./loaded.ts";

/** Reads the file, or null when there is none. */
export function readConfigText(file: string): Promise<string | null> {
  try {
    return Promise.resolve(readConfigTextSync(file));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The same, synchronously: the loader's first file read (a verb's first asynchronous one costs ~3 ms). */
export function readConfigTextSync(file: string): string | null {
  try {
    return Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw new SpotError("CONFIG_INVALID", `Cannot read config "${file}": ${(error as Error).message}`);
  }
}

/** Per config file, the text last validated in this process and its result. */
const resident = new Map<string, { text: string; loaded: LoadedConfig }>();

/** Forgets what this process validated (tests). */
export function forgetResidentConfigs(): void {
  resident.clear();
}

/**
 * The config and its legacy-key warnings; a missing file is written with the defaults first (unless `write`
 * is false: a command that only looks uses them without saving them). With a
 * `cacheRoot`, a config validated before is read back by the hash of its text and the validating code.
 */
export async function loadConfigWithWarnings(
  file: string,
  cacheRoot?: string,
  options: { write?: boolean } = {},
): Promise<LoadedConfig> {
  let text = readConfigTextSync(file);
  if (text === null) {
    // The defaults come from every worker CLI's record: loaded only for the first run on a machine.
    text = (await lazy<typeof import("./defaults.ts")>("./defaults.ts", import.meta.url)).defaultConfigText();
    if (options.write !== false) {
      await Deno.mkdir(dirname(file), { recursive: true });
      // A read-only home still gets a working default config, just not a saved one.
      await writeTextAtomic(file, text).catch(() => {});
    }
  }
  const kept = resident.get(file);
  // A copy each time: a caller may change what it was given, as it may a config read from disk.
  if (kept?.text === text) return structuredClone(kept.loaded);
  const cached = cacheRoot ? cachedConfig(cacheRoot, file, text) : null;
  const loaded = cached?.hit ??
    (await lazy<typeof import("./parse.ts")>("./parse.ts", import.meta.url)).readConfig(file, text);
  if (cached && !cached.hit) await saveCachedConfig(cached.slot, loaded);
  resident.set(file, { text, loaded: structuredClone(loaded) });
  return loaded;
}
