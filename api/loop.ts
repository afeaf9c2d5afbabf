/**
 * The closed loop as functions, each taking one options object: where spot reads its environment and which
 * run, nothing else. Each builds the same context the CLI builds and calls the same verb, so a library caller
 * gets exactly the CLI's gates, refusals and results (the CLI prints these results as its JSON).
 */
import { createContext } from "../config/context.ts";
import type { SpotContext } from "../store/context.ts";
import { type ApproveResult, approveRun } from "../verbs/approve.ts";
import { type CleanupResult, cleanupRun } from "../verbs/cleanup.ts";
import { type DiscardResult, discardRun } from "../lifecycle/discard.ts";
import { type IntegrateResult, integrateRun } from "../verbs/integrate.ts";
import { prepare as prepareVerb, type PrepareResult } from "../verbs/prepare.ts";
import { type ReportResult, reportRun } from "../verbs/report.ts";
import { type ReviseResult, reviseRun } from "../verbs/revise.ts";
import { type RunResult, runWorker } from "../verbs/run.ts";
import { type SelfReviewResult, selfReviewRun } from "../verbs/self_review.ts";
import { type VerifyResult, verifyRun } from "../verbs/verify.ts";

export type {
  ApproveResult,
  CleanupResult,
  DiscardResult,
  IntegrateResult,
  PrepareResult,
  ReportResult,
  ReviseResult,
  RunResult,
  SelfReviewResult,
  VerifyResult,
};

/** Where spot reads its settings; the defaults are the process's own, as for the CLI. */
export interface SpotOptions {
  /**
   * The environment spot reads (`PI_WORKER_CONFIG`, `PI_WORKER_STATE_DIR`, `PI_WORKER_CACHE_DIR`,
   * `PARENT_AGENT`, provider keys, ...). When given, only it is read.
   */
  env?: Record<string, string | undefined>;
  /** The working directory: the repository for `prepare`, the base of relative file names. */
  cwd?: string;
  /** Cancels a worker turn or a check in flight, as Ctrl-C does for the CLI. */
  signal?: AbortSignal;
}

/** One run, by its id (`prepare` returns it). */
export interface RunTarget extends SpotOptions {
  /** The run's id, as `prepare` returned it. */
  runId: string;
}

/** What `prepare` takes. */
export interface PrepareInput extends SpotOptions {
  /** The task contract file (JSON; see `TaskContractInput`). */
  task: string;
  /** A profile by name instead of routing by difficulty and cost. */
  profile?: string;
  /** A model for that profile (for the replay worker: the episode file). */
  model?: string;
  /** The OS sandbox: `auto` (the default), `bwrap` or `none`. */
  sandbox?: "auto" | "bwrap" | "none";
  /** A parent usage snapshot taken before planning (`spot parent-meter`). */
  usageStart?: string;
}

/** A run and the parent's review of it. */
export interface ReviewInput extends RunTarget {
  /** The review file (JSON; see `ReviewResultInput`). */
  review: string;
}

/** What `approve` takes: the review, and the commit subject. */
export interface ApproveInput extends ReviewInput {
  /** The commit subject: one line, at most 200 characters. */
  message: string;
}

/** What `report` takes. */
export interface ReportInput extends RunTarget {
  /** `parent` also returns `parentText`, the final response a parent gives its user. */
  format?: "json" | "parent";
}

async function contextFor(options: SpotOptions): Promise<SpotContext> {
  const env = options.env;
  return await createContext({
    env: env ? (name) => env[name] : undefined,
    cwd: options.cwd,
    signal: options.signal,
  });
}

/**
 * Checks a contract, chooses a worker and builds its worktree; the run is `prepared`.
 *
 * @example
 * ```ts ignore
 * import { prepare } from "@spot/spot";
 *
 * const { runId, profile } = await prepare({ task: "task.json", sandbox: "auto" });
 * console.log(runId, profile);
 * ```
 */
export async function prepare(options: PrepareInput): Promise<PrepareResult> {
  const { task, profile, model, sandbox, usageStart } = options;
  return await prepareVerb(await contextFor(options), {
    taskFile: task,
    profile,
    model,
    sandbox,
    usageStart,
  });
}

/**
 * Runs the worker's implementation turn in the sandbox.
 *
 * @example
 * ```ts ignore
 * import { run } from "@spot/spot";
 *
 * const { status, attempts } = await run({ runId: "run-20261201-101500-a1b2c3" });
 * ```
 */
export async function run(options: RunTarget): Promise<RunResult> {
  return await runWorker(await contextFor(options), options.runId);
}

/**
 * Scans the diff and runs the contract's checks in a pristine tree.
 *
 * @example
 * ```ts ignore
 * import { verify } from "@spot/spot";
 *
 * const { passed, diffSha256, reviewTier } = await verify({ runId: "run-20261201-101500-a1b2c3" });
 * ```
 */
export async function verify(options: RunTarget): Promise<VerifyResult> {
  return await verifyRun(await contextFor(options), options.runId);
}

/**
 * Has the worker pre-digest its diff for the parent's review (read-only).
 *
 * @example
 * ```ts ignore
 * import { selfReview } from "@spot/spot";
 *
 * const { reviewTier, hunksToRead } = await selfReview({ runId: "run-20261201-101500-a1b2c3" });
 * ```
 */
export async function selfReview(options: RunTarget): Promise<SelfReviewResult> {
  return await selfReviewRun(await contextFor(options), options.runId);
}

/**
 * Sends a `revise` review's findings back to the worker for another turn.
 *
 * @example
 * ```ts ignore
 * import { revise } from "@spot/spot";
 *
 * await revise({ runId: "run-20261201-101500-a1b2c3", review: "review.json" });
 * ```
 */
export async function revise(options: ReviewInput): Promise<ReviseResult> {
  return await reviseRun(await contextFor(options), options.runId, options.review);
}

/**
 * Approves the verified diff (bound by its sha256) and commits it on the worker branch.
 *
 * @example
 * ```ts ignore
 * import { approve } from "@spot/spot";
 *
 * await approve({ runId: "run-20261201-101500-a1b2c3", review: "review.json", message: "Fix add()" });
 * ```
 */
export async function approve(options: ApproveInput): Promise<ApproveResult> {
  return await approveRun(await contextFor(options), options.runId, options.review, options.message);
}

/**
 * Cherry-picks the approved commit onto the clean source branch; never pushes.
 *
 * @example
 * ```ts ignore
 * import { integrate } from "@spot/spot";
 *
 * const { integratedCommit, pushed } = await integrate({ runId: "run-20261201-101500-a1b2c3" });
 * ```
 */
export async function integrate(options: RunTarget): Promise<IntegrateResult> {
  return await integrateRun(await contextFor(options), options.runId);
}

/**
 * Writes metrics.json and report.md, and returns the headline (tokens the delegation saved).
 *
 * @example
 * ```ts ignore
 * import { report } from "@spot/spot";
 *
 * const { headline, parentText } = await report({ runId: "run-20261201-101500-a1b2c3", format: "parent" });
 * ```
 */
export async function report(options: ReportInput): Promise<ReportResult> {
  return await reportRun(await contextFor(options), options.runId, { format: options.format });
}

/**
 * Removes a finished run's worktree; the run directory stays.
 *
 * @example
 * ```ts ignore
 * import { cleanup } from "@spot/spot";
 *
 * await cleanup({ runId: "run-20261201-101500-a1b2c3" });
 * ```
 */
export async function cleanup(options: RunTarget): Promise<CleanupResult> {
  return await cleanupRun(await contextFor(options), options.runId);
}

/**
 * Drops a run that will not be finished: its worktree's changes saved to the run's `diff.patch`, the worktree
 * and branch removed, the run ended `discarded` (freeing its run slot).
 *
 * @example
 * ```ts ignore
 * import { discard } from "@spot/spot";
 *
 * const { diffFile } = await discard({ runId: "run-20261201-101500-a1b2c3" });
 * ```
 */
export async function discard(options: RunTarget): Promise<DiscardResult> {
  return await discardRun(await contextFor(options), options.runId);
}
