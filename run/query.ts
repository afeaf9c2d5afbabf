/** `list` and `inspect`: read-only views of the run store. */
import type { SpotContext } from "./context.ts";
import { runIndexFor } from "./run_index.ts";
import { loadTask } from "./task_file.ts";

export { ACTIVE, summarize } from "./run_entry.ts";

export interface ListOptions {
  status?: string;
  caller?: string;
  running?: boolean;
}

/** Reads the run index (kept current by `save()`, rebuilt from the run directories when stale). */
export async function listRuns(ctx: SpotContext, options: ListOptions) {
  const index = runIndexFor(ctx.paths);
  await index.refresh();
  const runs = index.summaries({ status: options.status, caller: options.caller, active: options.running });
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
