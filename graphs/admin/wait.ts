/**
 * `spot job wait JOB [--timeout-ms N]`: until the job settles (by default; its limits.jobMs bounds that), or up
 * to N ms. It fails JOB_FAILED (or the limit's code) when the job settled with a task that did not succeed,
 * and JOB_NOT_RUNNING when nothing coordinates an unsettled job. `barrier` polls the same way.
 */
import { type ErrorCode, SpotError } from "../../errors.ts";
import type { SpotContext } from "../../store/context.ts";
import { loadJob } from "../store.ts";
import { COORDINATOR_LOG, jobStatus, type JobView } from "../verbs.ts";

/**
 * How long `wait` lets an unsettled job go without a live coordinator before it says so: longer than a
 * coordinator takes from `spot job start` to holding the job on a loaded machine.
 */
export const NO_COORDINATOR_GRACE_MS = 15_000;

export async function waitJob(
  ctx: SpotContext,
  jobId: string,
  options: { timeoutMs?: number; graceMs?: number } = {},
) {
  const end = Date.now() + (options.timeoutMs ?? await untilJobEnds(ctx, jobId));
  const watch = coordinatorWatch(options.graceMs);
  for (;;) {
    const v = await jobStatus(ctx, jobId);
    watch(v);
    // A cancelled job is settled once its coordinator has recorded how each running task ended.
    const settled = (v.status === "succeeded" || v.status === "failed" || v.status === "cancelled") &&
      (v.tasks.every((t) => t.state !== "running") || !v.coordinatorAlive);
    if (settled) {
      if (v.status === "succeeded") return { ...v, waiting: false };
      const bad = v.tasks.filter((t) => t.state !== "succeeded").map((t) => `${t.id} ${t.state}`);
      // A job its own limits stopped fails with the limit's code; any other with JOB_FAILED.
      const code = /^(BUDGET_EXCEEDED|JOB_TIMEOUT):/.exec(v.reason ?? "")?.[1] as ErrorCode | undefined;
      const why = code ? ` (${v.reason})` : "";
      throw new SpotError(code ?? "JOB_FAILED", `Job "${jobId}" ended ${v.status}${why}: ${bad.join(", ")}`, {
        details: { ...v, waiting: false },
      });
    }
    if (Date.now() >= end) return { ...v, waiting: true };
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * How long the coordinator may take, after a job's `limits.jobMs` ran out, to stop its running tasks and record
 * the job cancelled: a stopped worker and its checks get their own grace periods first.
 */
export const SETTLE_MARGIN_MS = 120_000;

/**
 * `wait` and `barrier` without `--timeout-ms`: until the job settles, which its own `limits.jobMs` bounds
 * (counted from its first start, or whole when it has not started), plus the coordinator's margin to stop it.
 */
export async function untilJobEnds(ctx: SpotContext, jobId: string): Promise<number> {
  const { job, state } = await loadJob(ctx.paths, jobId);
  const started = state.startedAt ? Date.parse(state.startedAt) : Date.now();
  return Math.max(0, started + job.config.limits.jobMs - Date.now()) + SETTLE_MARGIN_MS;
}

/**
 * For a verb that polls a job (`wait`, `barrier`): nothing will move a job that is not settled and has no
 * coordinator, so after `graceMs` of that it throws JOB_NOT_RUNNING instead of letting the caller wait forever.
 */
export function coordinatorWatch(graceMs = NO_COORDINATOR_GRACE_MS): (v: JobView) => void {
  let orphanedSince: number | null = null;
  return (v) => {
    if ((v.status !== "created" && v.status !== "running") || v.coordinatorAlive) {
      orphanedSince = null;
      return;
    }
    orphanedSince ??= Date.now();
    if (Date.now() - orphanedSince >= graceMs) throw notRunning(v);
  };
}

function notRunning(v: JobView): SpotError {
  const fix = v.status === "created"
    ? `start it (spot job start ${v.jobId})`
    : `resume it (spot job resume ${v.jobId}); ${COORDINATOR_LOG} in its job dir says what ended the last one`;
  return new SpotError(
    "JOB_NOT_RUNNING",
    `Cannot wait for job "${v.jobId}": it is ${v.status} and no coordinator is running it; ${fix}`,
    { details: { ...v, waiting: false } },
  );
}
