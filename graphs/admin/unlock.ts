/**
 * `spot job unlock JOB`, and the hold the job's other housekeeping verbs take.
 *
 * The coordinator's lock is a kernel lock on `coordinator.lock`: the kernel drops it when the coordinator dies,
 * however it dies, so no lock can be stale and unlock never has to guess whether a recorded pid still runs (a
 * pid the system has since given to another process looks alive). What a dead coordinator does leave is its
 * record in `state.json` (`coordinator: {pid, startedAt}`); unlock clears that. It takes the lock itself while
 * it does, so it cannot race a coordinator starting, and it refuses (JOB_RUNNING) while one holds the job.
 */
import { isSpotError, SpotError } from "../../errors.ts";
import type { SpotContext } from "../../store/context.ts";
import type { HeldLock } from "../../store/lock.ts";
import type { SpotPaths } from "../../store/paths.ts";
import { appendEvent, coordinatorAlive, holdCoordinator, loadJob, updateJob } from "../store.ts";

/**
 * Takes the job's coordinator lock for a verb that must not run beside a coordinator (unlock, cleanup, gc);
 * JOB_RUNNING with the recorded pid while one holds it. While held, `spot job start` cannot take the job.
 */
export async function holdIdleJob(paths: SpotPaths, jobId: string, verb: string): Promise<HeldLock> {
  const { state } = await loadJob(paths, jobId);
  try {
    return await holdCoordinator(paths, jobId);
  } catch (error) {
    if (!isSpotError(error, "JOB_RUNNING")) throw error;
    throw running(jobId, verb, state.coordinator?.pid ?? null);
  }
}

/** The same refusal for a preview, which takes no lock (a `spot job start` meanwhile is not disturbed). */
export async function assertIdleJob(paths: SpotPaths, jobId: string, verb: string): Promise<void> {
  const { state } = await loadJob(paths, jobId);
  if (await coordinatorAlive(paths, jobId)) throw running(jobId, verb, state.coordinator?.pid ?? null);
}

function running(jobId: string, verb: string, pid: number | null): SpotError {
  const hint = `wait for it (spot job wait ${jobId}) or cancel it (spot job cancel ${jobId})`;
  return new SpotError(
    "JOB_RUNNING",
    `Cannot ${verb} job "${jobId}": its coordinator is running${pid ? ` (pid ${pid})` : ""}`,
    { details: { jobId, pid, hint } },
  );
}

export async function unlockJob(ctx: SpotContext, jobId: string) {
  const held = await holdIdleJob(ctx.paths, jobId, "unlock");
  try {
    const found: { pid?: number } = {};
    // Housekeeping, not progress: updatedAt (what gc ages a job by) stays as the job left it.
    await updateJob(ctx.paths, jobId, (_, state) => {
      if (!state.coordinator) return { state };
      found.pid = state.coordinator.pid;
      const { coordinator: _gone, ...rest } = state;
      return { state: rest };
    });
    if (found.pid === undefined) return { jobId, unlocked: false };
    await appendEvent(ctx.paths, jobId, {
      at: ctx.now(),
      type: "job",
      state: "unlocked",
      reason: `cleared the record of coordinator pid ${found.pid}, which no longer held the job`,
    });
    return { jobId, unlocked: true, stalePid: found.pid };
  } finally {
    held.release();
  }
}
