/**
 * A task's run after its task ended: a read-only task that succeeded changed nothing, so its run ends
 * `succeeded` (never `integrated`: nothing landed); a failed task's run ends failed with the task's reason. A succeeded builder's run waits,
 * approvable, for `spot job integrate`, marked as waiting for its job. None of them holds a slot of
 * `maxConcurrentRuns` any more (lifecycle/admit.ts).
 */
import { TERMINAL } from "../schemas/constants.ts";
import type { SpotContext } from "../store/context.ts";
import { finishEmptyRun, moveRun } from "../lifecycle/move.ts";
import type { TaskRecord } from "./store.ts";

export async function endTaskRun(
  ctx: SpotContext,
  jobId: string,
  role: string,
  record: TaskRecord,
): Promise<void> {
  const runId = record.runId;
  if (!runId) return;
  const held = await ctx.store.lock(runId).catch(() => null);
  if (!held) return;
  try {
    const state = await ctx.store.load(runId).catch(() => null);
    if (!state || TERMINAL.has(state.status)) return;
    if (record.state === "succeeded" && role === "builder") {
      await ctx.store.save({ ...state, awaitingJob: jobId, updatedAt: ctx.now() });
      return;
    }
    if (record.state === "succeeded") {
      await finishEmptyRun(ctx, state, `${role} task succeeded: nothing to integrate`);
      return;
    }
    const reason = record.reason ?? `task ${record.state}`;
    await moveRun(ctx, state, "failed", `task ${record.state}: ${reason}`.slice(0, 500), {
      failure: { code: "JOB_TASK_FAILED", message: reason },
    });
  } finally {
    held.release();
  }
}
