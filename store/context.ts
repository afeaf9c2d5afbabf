/**
 * Everything a verb needs from the outside world, passed in one value so
 * tests can plug their own env, clock and paths in at the seam.
 */
import type { Config } from "../schemas/config.ts";
import { loadConfig } from "../config/load.ts";
import { type EnvReader, resolvePaths, type SpotPaths } from "./paths.ts";
import { RunStore } from "./run_store.ts";

export interface SpotContext {
  paths: SpotPaths;
  store: RunStore;
  config: Config;
  env: EnvReader;
  now: () => string;
  cwd: string;
  /** Aborted when the user interrupts (SIGINT, SIGTERM, SIGHUP). */
  signal?: AbortSignal;
  /** A short human progress line (the CLI shows it on a TTY). */
  progress?: (text: string) => void;
}

export interface ContextOptions {
  env?: EnvReader;
  now?: () => string;
  cwd?: string;
  signal?: AbortSignal;
  progress?: (text: string) => void;
}

export async function createContext(options: ContextOptions = {}): Promise<SpotContext> {
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const now = options.now ?? (() => new Date().toISOString());
  const paths = resolvePaths(env);
  await Deno.mkdir(paths.runsDir, { recursive: true, mode: 0o700 });
  const config = await loadConfig(paths.configFile);
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
