/** Builds the context every verb runs with: resolved paths, the run store, the loaded config. */
import type { SpotContext } from "../store/context.ts";
import { type EnvReader, resolvePaths } from "../store/paths.ts";
import { RunStore } from "../store/run_store.ts";
import { formatWarning, loadConfigWithWarnings } from "./load.ts";

export interface ContextOptions {
  env?: EnvReader;
  now?: () => string;
  cwd?: string;
  signal?: AbortSignal;
  progress?: (text: string) => void;
  /** Told each legacy config key the file still uses, once, as `file:line:col key: message`. */
  warn?: (text: string) => void;
}

export async function createContext(options: ContextOptions = {}): Promise<SpotContext> {
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const now = options.now ?? (() => new Date().toISOString());
  const paths = resolvePaths(env);
  await Deno.mkdir(paths.runsDir, { recursive: true, mode: 0o700 });
  const { config, warnings } = await loadConfigWithWarnings(paths.configFile);
  for (const w of warnings) options.warn?.(formatWarning(paths.configFile, w));
  return {
    paths,
    store: new RunStore(paths, now),
    config,
    env,
    now,
    cwd: options.cwd ?? Deno.cwd(),
    signal: options.signal,
    progress: options.progress,
  };
}
