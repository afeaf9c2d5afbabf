/**
 * What a run records about the project's dependencies (`state.json` →
 * `dependencies`): where each ecosystem's dependency dirs come from, and
 * which dirs the worker and the checks see, read-only, inside their trees.
 */

export type DependencySource = "reuse" | "setup" | "none";

/** One dependency dir a tree sees, read-only. */
export interface DependencyDir {
  /** Repo-relative, where the worker and the checks see it (`node_modules`, `.venv`). */
  path: string;
  /** The host directory behind it: the source checkout's own, or a setup's in spot's cache. */
  from: string;
}

/** How one ecosystem of the project gets its dependencies. */
export interface EcosystemPlan {
  /** Which kind of project: node, python, or a configured command. */
  ecosystem: "node" | "python" | "custom";
  /** Where its dirs come from. */
  source: DependencySource;
  /** Why this source, in a sentence (or why none). */
  reason: string;
  /** The root lockfile at the base revision, by git blob id. */
  lockfile?: { path: string; oid: string };
  /** For setup: the command, run once per lockfile in spot's cache. */
  command?: string;
}

/** The setup that installed a run's dependencies from its lockfile. */
export interface SetupRecord {
  /** The install command, run in a fresh checkout of the base. */
  command: string;
  /** sha256 of the command and the lockfiles' blob ids: a second run with the same key reuses the result. */
  key: string;
  /** Where the installed dirs are, in spot's cache. */
  dir: string;
  /** An earlier run's setup with the same key was reused. */
  cached: boolean;
  /** What the setup cost this run, in ms: the install, or for a reused one the lock wait and lookup. */
  durationMs: number;
  /** The setup's output log. */
  log: string;
  /** What the egress proxy let the setup reach (`none` sandbox: unrestricted). */
  network: string;
}

/** What a run records about the project's dependencies. */
export interface DependencyRecord {
  /** Each ecosystem found and how it is provided. */
  ecosystems: EcosystemPlan[];
  /** The dirs the worker and the checks see. */
  dirs: DependencyDir[];
  /** The setup run, when one was needed. */
  setup?: SetupRecord;
  /** Ignored files `.worktreeinclude` listed, copied from the source checkout into every new tree. */
  include: string[];
}
