/**
 * The job's `notify` command: run once by the coordinator when the job settles (succeeded, failed or
 * cancelled), in the job's repository, with the job's summary as one JSON object on stdin. It is the parent's
 * own command, like `integratedChecks`: no sandbox, a small environment, killed after its timeout. What it did
 * is recorded in `state.json` (`notified`); its failure never changes the job's outcome.
 */
import { spawnProcess } from "../sandbox/spawn.ts";
import type { SpotContext } from "../store/context.ts";
import { type JobState, loadJob, type StoredJob, taskOutline, updateJob } from "./store.ts";

/** What a notify command is told: the job's outcome and each task's, with what it cost. */
export function jobSummary(job: StoredJob, state: JobState) {
  return {
    jobId: job.jobId,
    status: state.status,
    ...(state.reason ? { reason: state.reason } : {}),
    costUsd: Object.values(state.tasks).reduce((sum, t) => sum + (t.costUsd ?? 0), 0),
    tasks: job.tasks.map((t) => {
      const r = state.tasks[t.id];
      return { ...taskOutline(t, r), ...(r.costUsd !== undefined ? { costUsd: r.costUsd } : {}) };
    }),
  };
}

export async function notifyJob(ctx: SpotContext, jobId: string): Promise<void> {
  const { job, state } = await loadJob(ctx.paths, jobId);
  // Once per job: a coordinator resumed after the job settled does not tell the parent again.
  if (!job.notify || state.notified) return;
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "LANG", "TZ"]) {
    const value = ctx.env(name);
    if (value !== undefined) env[name] = value;
  }
  const r = await spawnProcess(job.notify.argv, {
    cwd: job.cwd,
    env: { ...env, SPOT_JOB_ID: jobId },
    stdinText: JSON.stringify(jobSummary(job, state)) + "\n",
    timeoutMs: job.notify.timeoutMs,
    maxOutputChars: 4000,
  });
  const notified = {
    at: ctx.now(),
    exitCode: r.exitCode,
    ...(r.timedOut ? { timedOut: true } : {}),
    ...(r.spawnError ? { error: r.spawnError } : {}),
    ...(r.exitCode !== 0 && r.stderr ? { stderr: r.stderr.slice(-1000) } : {}),
  };
  await updateJob(ctx.paths, jobId, (_, state) => ({ state: { ...state, notified } }));
}
