/**
 * One attempt on an executor, done the way a local run is done, through the same verbs: `prepare` in a scratch
 * source at the origin's commit (the executor's own profile, sandbox and gates), `run` (and the job result's
 * repair turn), `verify`, `self-review` when asked; then the result is published and the task completed, once.
 * Whatever the run's outcome (passed, failed checks, a failed or blocked turn), it is the result: the origin's run
 * takes it over. The attempt's scratch run is discarded afterwards in every case.
 *
 * `signal` aborts the attempt (lease lost, task cancelled, executor stopping): nothing is published then.
 */
import { join } from "../base/path.ts";
import { isSpotError } from "../errors.ts";
import type { Claim, Queue } from "../queue/types.ts";
import type { SpotContext } from "../store/context.ts";
import { prepare } from "../verbs/prepare.ts";
import { runWorker } from "../verbs/run.ts";
import { selfReviewRun } from "../verbs/self_review.ts";
import { verifyRun } from "../verbs/verify.ts";
import { repairJobResult } from "./job_result.ts";
import { publishAttempt, removeAttemptObjects } from "./publish.ts";
import { discardAttempt, makeWorkspace, placeAttachments } from "./workspace.ts";

export type AttemptOutcome =
  | { kind: "completed"; runStatus: string; fetched: number }
  | { kind: "refused" }
  | { kind: "failed"; code: string; message: string }
  | { kind: "released"; why: string }
  | { kind: "aborted"; why: string };

/** Errors that say "not here, not now": the task goes back for another executor (or this one, later). */
const ELSEWHERE = new Set(["CONCURRENCY_LIMIT", "RUN_LOCKED", "QUEUE_UNAVAILABLE"]);

/** The executor's id for an attempt's run: the task's, and the attempt (80 characters at most, as run ids are). */
export function attemptRunId(taskId: string, attempt: number): string {
  const tail = `.a${attempt}`;
  return taskId.slice(0, 80 - tail.length) + tail;
}

/** Drives the attempt's run through the verbs; a failed turn or a blocked verification ends it, not the attempt. */
async function drive(ctx: SpotContext, runId: string, claim: Claim): Promise<void> {
  const item = claim.item;
  const settled = (error: unknown) => {
    // The run recorded its end (failed, blocked): that is the result. Anything else is the attempt's failure.
    if (ctx.signal?.aborted || !isSpotError(error) || ELSEWHERE.has(error.code)) throw error;
  };
  try {
    await runWorker(ctx, runId, await placeAttachments(ctx, runId, item));
    await repairJobResult(ctx, runId, item);
  } catch (error) {
    settled(error);
    return;
  }
  if (!item.verify || (await ctx.store.load(runId)).status !== "verifying") return;
  try {
    await verifyRun(ctx, runId);
    if (item.selfReview && (await ctx.store.load(runId)).status === "selfReviewing") {
      await selfReviewRun(ctx, runId);
    }
  } catch (error) {
    settled(error);
  }
}

export async function executeAttempt(
  ctx: SpotContext,
  queue: Queue,
  options: { claim: Claim; host: string; signal: AbortSignal; why: () => string },
): Promise<AttemptOutcome> {
  const { claim, signal } = options;
  const item = claim.item;
  const runId = attemptRunId(item.taskId, claim.attempt);
  const selfReview = { ...ctx.config.selfReview, enabled: item.selfReview ?? false };
  const actx: SpotContext = { ...ctx, signal, progress: undefined, config: { ...ctx.config, selfReview } };
  try {
    const ws = await makeWorkspace(actx, queue, { item, runId });
    await prepare(actx, {
      taskFile: ws.taskFile,
      runId,
      profile: item.profile,
      model: ws.model,
      sandbox: item.sandbox === "os" ? "auto" : "none",
      startCommit: item.repo.start,
      ...(item.repo.checkout ? { checkoutCommit: item.repo.checkout } : {}),
      ...(item.workspaceEnv ? { workspaceEnv: item.workspaceEnv } : {}),
      selectWorker: false,
      selectModel: false,
      interactive: false,
    });
    const fleet = {
      role: "executor" as const,
      queue: queue.where,
      taskId: item.taskId,
      attempt: claim.attempt,
      executor: claim.executor,
      origin: { host: item.origin.host, runId: item.origin.runId },
    };
    await ctx.store.save({ ...(await ctx.store.load(runId)), fleet });
    await drive(actx, runId, claim);
    if (signal.aborted) return { kind: "aborted", why: options.why() };
    const ref = await publishAttempt(actx, queue, {
      claim,
      runId,
      host: options.host,
      scratch: join(ws.dir, "scratch"),
    });
    if (!(await claim.complete(ref))) {
      await removeAttemptObjects(queue, item.taskId, claim.attempt);
      return { kind: "refused" };
    }
    return { kind: "completed", runStatus: (await ctx.store.load(runId)).status, fetched: ws.fetched };
  } catch (error) {
    if (signal.aborted) return { kind: "aborted", why: options.why() };
    const code = isSpotError(error) ? error.code : "INTERNAL";
    const message = error instanceof Error ? error.message : String(error);
    if (ELSEWHERE.has(code)) {
      await claim.release(`${code} on ${claim.executor}`).catch(() => {});
      return { kind: "released", why: message };
    }
    await claim.fail({ code, message: message.slice(0, 2000) }).catch(() => false);
    return { kind: "failed", code, message };
  } finally {
    await discardAttempt(ctx, runId);
  }
}
