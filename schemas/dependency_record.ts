/**
 * What a run records about the project's dependencies (`state.json` →
 * `dependencies`): where each ecosystem's dependency dirs come from, and
 * which dirs the worker and the checks see, read-only, inside their trees.
 */

export type DependencySource = "reuse" | "setup" | "none";

export interface DependencyDir {
  /** Repo-relative, where the worker and the checks see it (`node_modules`, `.venv`). */
  path: string;
  /** The host directory behind it: the source checkout's own, or a setup's in spot's cache. */
  from: string;
}

export interface EcosystemPlan {
  ecosystem: "node" | "python" | "custom";
  source: DependencySource;
  /** Why this source, in a sentence (or why none). */
  reason: string;
  /** The root lockfile at the base revision, by git blob id. */
  lockfile?: { path: string; oid: string };
  /** For setup: the command, run once per lockfile in spot's cache. */
  command?: string;
}

export interface SetupRecord {
  command: string;
  /** sha256 of the command and the lockfiles' blob ids: a second run with the same key reuses the result. */
  key: string;
  dir: string;
  cached: boolean;
  /** What the setup cost this run, in ms: the install, or for a reused one the lock wait and lookup. */
  durationMs: number;
  log: string;
  /** What the egress proxy let the setup reach (`none` sandbox: unrestricted). */
  network: string;
}

export interface DependencyRecord {
  ecosystems: EcosystemPlan[];
  dirs: DependencyDir[];
  setup?: SetupRecord;
  /** Ignored files `.worktreeinclude` listed, copied from the source checkout into every new tree. */
  include: string[];
}
