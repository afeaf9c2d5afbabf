/**
 * Everything a verb needs from the outside world, passed in one value so
 * tests can plug their own env, clock and paths in at the seam. It is built
 * by `createContext` (config/context.ts), which loads the config.
 */
import type { Config } from "../schemas/config.ts";
import type { EnvReader, SpotPaths } from "./paths.ts";
import type { RunStore } from "./run_store.ts";

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
  /**
   * A command that only looks (`doctor`, `list`, `inspect`, ...): it creates none of spot's places (the
   * config file, the state and cache directories); where they exist it may keep spot's own records current.
   */
  readOnly?: boolean;
}
