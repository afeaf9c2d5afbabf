/** Builds the context every verb runs with: resolved paths, the run store, the loaded config. */
import { lazy } from "../base/lazy.ts";
import { SpotError } from "../errors.ts";
import type { Config } from "../schemas/config.ts";
import type { FileWarning } from "./loaded.ts";
import type { SpotContext } from "../store/context.ts";
import { type EnvReader, resolvePaths } from "../store/paths.ts";
import { RunStore } from "../store/run_store.ts";
import { pathExists } from "../store/files.ts";

export interface ContextOptions {
  env?: EnvReader;
  now?: () => string;
  cwd?: string;
  signal?: AbortSignal;
  progress?: (text: string) => void;
  /** Told each legacy config key the file still uses, once, as `file:line:col key: message` and as data. */
  warn?: (text: string, warning?: FileWarning) => void;
  /**
   * False for a verb that never reads the config (`inspect`): it starts ~3 ms sooner, and reading
   * `ctx.config` anyway is an INTERNAL error, so a verb cannot come to depend on it unnoticed.
   */
  loadConfig?: boolean;
  /** A command that only looks: create no directory and no config file (see SpotContext.readOnly). */
  readOnly?: boolean;
}

/** Stands in for the config of a verb that said it needs none. */
function noConfig(): Config {
  return new Proxy({} as Config, {
    get(_target, key) {
      throw new SpotError(
        "INTERNAL",
        `This command does not load the config, yet read config.${String(key)}`,
      );
    },
  });
}

export async function createContext(options: ContextOptions = {}): Promise<SpotContext> {
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const now = options.now ?? (() => new Date().toISOString());
  const paths = resolvePaths(env);
  const readOnly = options.readOnly === true;
  if (!readOnly) Deno.mkdirSync(paths.runsDir, { recursive: true, mode: 0o700 });
  let config = noConfig();
  if (options.loadConfig !== false) {
    const { formatWarning, loadConfigWithWarnings } = await lazy<typeof import("./load.ts")>(
      "./load.ts",
      import.meta.url,
    );
    // A look creates no config and no cache dir: the defaults stay in memory, the validated config uncached.
    const cacheRoot = readOnly && !pathExists(paths.cacheRoot) ? undefined : paths.cacheRoot;
    const loaded = await loadConfigWithWarnings(paths.configFile, cacheRoot, { write: !readOnly });
    for (const w of loaded.warnings) {
      options.warn?.(formatWarning(paths.configFile, w), { file: paths.configFile, ...w });
    }
    config = loaded.config;
  }
  return {
    paths,
    store: new RunStore(paths, now),
    config,
    env,
    now,
    cwd: options.cwd ?? Deno.cwd(),
    signal: options.signal,
    progress: options.progress,
    ...(readOnly ? { readOnly } : {}),
  };
}
