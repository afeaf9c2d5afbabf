/** `inspect`: one run's files, read straight from its directory (no run index, so it starts fast). */
import type { SpotContext } from "../store/context.ts";
import { loadTask } from "../store/task_file.ts";

export async function inspectRun(ctx: SpotContext, runId: string) {
  const state = await ctx.store.load(runId);
  const task = await loadTask(ctx.store, runId);
  const [verification, selfReview, review, metrics] = await Promise.all(
    ["verification.json", "self-review.json", "review.json", "metrics.json"].map((f) =>
      ctx.store.readJson(runId, f)
    ),
  );
  return {
    /** "pi-worker" for a run the original tool wrote: spot shows it and never changes it. */
    origin: state.origin ?? "spot",
    state,
    task: { runId: task.runId, goal: task.goal, risk: task.risk, allowedPaths: task.allowedPaths },
    failure: state.failure,
    dependencies: state.dependencies ?? null,
    verification,
    selfReview,
    review,
    metrics,
    workerUsage: { usage: state.workerUsage, costUsd: state.workerCostUsd, attempts: state.workerAttempts },
  };
}
