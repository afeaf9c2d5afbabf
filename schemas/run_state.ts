/** The persisted record of one run (`state.json`). */
import { z } from "zod";
import { RUN_STATUSES } from "./constants.ts";
import type { Usage } from "./events.ts";
import type { DependencyRecord } from "./dependency_record.ts";
import type { SandboxDetails, SandboxLevel } from "./sandbox_record.ts";

export const Status = z.enum(RUN_STATUSES);
export type Status = z.infer<typeof Status>;

export { TERMINAL } from "./constants.ts";

export type Caller =
  | "trae"
  | "codex"
  | "claude-code"
  | "cursor"
  | "pi-recursive"
  | "workbuddy"
  | "cli"
  | "unknown";

export interface Transition {
  from: Status | null;
  to: Status;
  at: string;
  reason: string;
}

export interface RunFailure {
  code: string;
  class?: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface SourceFingerprint {
  head: string;
  branch: string | null;
  dirty: boolean;
  digest: string;
}

export interface FleetRecord {
  role: "origin" | "executor";
  /** The queue's server (`nats://host:4222`). */
  queue: string;
  taskId: string;
  enqueuedAt?: string;
  executor?: string;
  attempt?: number;
  importedAt?: string;
  /** On an executor: the run it works for. */
  origin?: { host: string; runId: string };
}

/** One of spot's input files inside the repository, as spot read it (null: it was not there). */
export interface InputFile {
  path: string;
  sha256: string | null;
  /** Handed to spot by an earlier run in this repository: left out, its content watched once this run reads it. */
  remembered?: boolean;
}

export type RunOwner = { kind: "agent"; name: string } | { kind: "job"; jobId: string; task: string };

export interface RunState {
  schemaVersion: 1;
  /** Set on a run the original pi-worker wrote: spot shows it, never drives it (absent on spot's own). */
  origin?: "pi-worker";
  runId: string;
  status: Status;
  createdAt: string;
  updatedAt: string;
  caller: Caller;
  sourceRoot: string;
  sourceHead: string;
  sourceBranch: string | null;
  sourceFingerprint: SourceFingerprint;
  sourceDirty: boolean;
  /**
   * spot's own input files that sit untracked in the source checkout (the contract, an episode, a usage
   * snapshot, review files), with their sha256 when spot read them: left out of the source's fingerprint and
   * dirtiness, and watched by content by the escape check instead (gates/input_files.ts).
   */
  inputFiles?: InputFile[];
  worktreePath: string;
  /** The git dir spot created for the worktree; spot's git uses it, never the worktree's `.git` file. */
  worktreeGitDir?: string;
  workerBranch: string;
  baseRevision: string;
  /** The commit the worker starts from: the base, or a snapshot of the dirty source on top of it. */
  workerBaseRevision: string;
  snapshotCommit: string | null;
  /** A job's base (graphs/launch/base.ts): the worktree starts here and takes no snapshot of its own. */
  startCommit?: string;
  /**
   * A job task's worktree files start here instead of at `startCommit`, which stays the base its diff is
   * measured from (a repair continuing its earlier attempt's verified work).
   */
  checkoutCommit?: string;
  /** A job builder's run that succeeded and waits for its job's integration: it holds no run slot. */
  awaitingJob?: string;
  /**
   * The worker's turn ran on the fleet (docs/fleet.md). On the origin: the task it went out as and the executor
   * whose attempt was imported. On an executor: the task this scratch run does (it is removed once published).
   */
  fleet?: FleetRecord;
  /** Who drives the run besides its parent's commands: a named agent's driver, or a job's coordinator. */
  owner?: RunOwner;
  /** Set by spot for the worker and the checks (a job task's ports and compose project, graphs/launch/ports.ts). */
  workspaceEnv?: Record<string, string>;
  worktreeReady: boolean;
  /** Where the project's dependencies come from and what the trees see (absent on runs from before it). */
  dependencies?: DependencyRecord;
  /** sha256 of each gate baseline written at prepare (`locked.json`, `escape.json`). */
  baselines?: Record<string, string>;
  profile: string;
  adapter: string;
  provider: string;
  model: string;
  sandbox: SandboxLevel;
  /** Which OS sandbox backend the run uses, why, and what it enforces (absent on runs from before it). */
  sandboxDetails?: SandboxDetails;
  identity: { name: string; email: string };
  revisionRound: number;
  fallbackUsed: boolean;
  workerUsage: Usage;
  workerCostUsd: number;
  workerDurationMs: number;
  workerAttempts: number;
  transitions: Transition[];
  failure: RunFailure | null;
  interruption: { at: string; signal: string; phase: Status } | null;
  lastVerificationPassed: boolean | null;
  diffSha256: string | null;
  diffBytes: number | null;
  selfReviewSkipped: boolean | null;
  selfReviewSkipReason: string | null;
  implementationCommit: string | null;
  integratedCommit: string | null;
  /**
   * The commit `integrate` is about to fast-forward the source branch to (its checks passed in a scratch
   * tree), recorded before the branch moves: a killed integrate that finds it on the branch finishes.
   */
  landing?: { commit: string; onto: string; at: string };
  blockedReason: string | null;
  recovery: { at: string; from: Status; to: Status; reason: string; nextCommand: string | null } | null;
  lastReportAt: string | null;
  cleanedAt: string | null;
}
