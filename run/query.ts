/** `list` and `inspect`: read-only views of the run store. */
import type { RunState, Status } from "../schemas/run_state.ts";
import type { SpotContext } from "./context.ts";
import { loadTask } from "./task_file.ts";

/** Statuses `list --running` shows: a run someone is, or should be, working on. */
export const ACTIVE: ReadonlySet<Status> = new Set([
  "prepared",
  "running",
  "verifying",
  "selfReviewing",
  "reviewing",
  "revising",
]);

export interface ListOptions {
  status?: string;
  caller?: string;
  running?: boolean;
}

export function summarize(s: RunState) {
  return {
    runId: s.runId,
    status: s.status,
    caller: s.caller,
    profile: s.profile,
    adapter: s.adapter,
    provider: s.provider,
    model: s.model,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    revisionRound: s.revisionRound,
    fallbackUsed: s.fallbackUsed,
    sandbox: s.sandbox,
    implementationCommit: s.implementationCommit,
    integratedCommit: s.integratedCommit,
    sourceBranch: s.sourceBranch,
    workerBranch: s.workerBranch,
    failure: s.failure?.code ?? null,
  };
}

export async function listRuns(ctx: SpotContext, options: ListOptions) {
  const runs = (await ctx.store.all()).filter((s) =>
    (!options.status || s.status === options.status) &&
    (!options.caller || s.caller === options.caller) &&
    (!options.running || ACTIVE.has(s.status))
  ).map(summarize);
  return { runs, count: runs.length };
}

export async function inspectRun(ctx: SpotContext, runId: string) {
  const state = await ctx.store.load(runId);
  const task = await loadTask(ctx.store, runId);
  const [verification, selfReview, review, metrics] = await Promise.all(
    ["verification.json", "self-review.json", "review.json", "metrics.json"].map((f) =>
      ctx.store.readJson(runId, f)
    ),
  );
  return {
    state,
    task: { runId: task.runId, goal: task.goal, risk: task.risk, allowedPaths: task.allowedPaths },
    failure: state.failure,
    verification,
    selfReview,
    review,
    metrics,
    workerUsage: { usage: state.workerUsage, costUsd: state.workerCostUsd, attempts: state.workerAttempts },
  };
}
