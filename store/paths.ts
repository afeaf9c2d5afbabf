/** Where spot keeps config, state and cache; every root can be overridden by env. */
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { RUN_ID_PATTERN } from "../schemas/constants.ts";

export interface SpotPaths {
  configFile: string;
  stateRoot: string;
  cacheRoot: string;
  runsDir: string;
  worktreesDir: string;
  auditFile: string;
  admissionLock: string;
}

export type EnvReader = (name: string) => string | undefined;

function home(env: EnvReader): string {
  const value = env("HOME");
  if (!value) {
    throw new Error("Cannot locate spot's directories: HOME is not set and no PI_WORKER_* override is");
  }
  return value;
}

/** Resolves the seed's layout (kept under the historical pi-worker name). */
export function resolvePaths(read: EnvReader): SpotPaths {
  // XDG says an empty variable is the same as an unset one.
  const env: EnvReader = (name) => read(name) || undefined;
  const configFile = env("PI_WORKER_CONFIG") ??
    join(env("XDG_CONFIG_HOME") ?? join(home(env), ".config"), "pi-worker", "config.json");
  const stateRoot = env("PI_WORKER_STATE_DIR") ??
    join(env("XDG_STATE_HOME") ?? join(home(env), ".local", "state"), "pi-worker");
  const cacheRoot = env("PI_WORKER_CACHE_DIR") ??
    join(env("XDG_CACHE_HOME") ?? join(home(env), ".cache"), "pi-worker");
  return {
    configFile,
    stateRoot,
    cacheRoot,
    runsDir: join(stateRoot, "runs"),
    worktreesDir: join(cacheRoot, "worktrees"),
    auditFile: join(stateRoot, "audit.jsonl"),
    admissionLock: join(stateRoot, "admission.lock"),
  };
}

/**
 * A run's directory. The id is checked first, wherever it came from (`--id`, a contract, a URL): an id like
 * `../x` would otherwise name a directory outside the runs folder.
 */
export function runDir(paths: SpotPaths, runId: string): string {
  if (!RUN_ID_PATTERN.test(runId)) {
    throw new SpotError(
      "RUN_NOT_FOUND",
      `Cannot find run "${runId}": a run id is 3 to 80 letters, digits, ".", "_" or "-", starting with a letter or digit`,
      { details: { runId } },
    );
  }
  return join(paths.runsDir, runId);
}
