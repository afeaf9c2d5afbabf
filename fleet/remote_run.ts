/**
 * `spot run --id RUN --on fleet`: a prepared run's worker turn, spot's verification and (when the config enables
 * it) the self-review, done by an executor; the result taken over here (fleet/import.ts). The run ends where a
 * local `run` + `verify` + `self-review` would leave it, so the parent goes on with `spot diff` and `approve`.
 * A run whose task is still out (its `spot run` was killed) is followed again, never sent twice; an interrupt
 * cancels the task and leaves the run for `spot recover`, like a local turn.
 */
import { ERROR_CODES, type ErrorCode, SpotError } from "../errors.ts";
import { requireBaselines } from "../gates/baselines.ts";
import { moveRun } from "../lifecycle/move.ts";
import { requireStatus } from "../lifecycle/state_table.ts";
import type { TaskStatus } from "../queue/item.ts";
import { openQueue } from "../queue/open.ts";
import type { Queue } from "../queue/types.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { RunResult } from "../verbs/run.ts";
import type { SpotContext } from "../store/context.ts";
import { followTask } from "./await.ts";
import { sendRun, type SendSpec, unsent } from "./send.ts";
import { hostName } from "./fit.ts";
import { importResult } from "./import.ts";

/** Where a task on the fleet ended, as the origin's run records it; throws like the local verbs do. */
export async function settleTask(
  ctx: SpotContext,
  queue: Queue,
  state: RunState,
  status: TaskStatus,
): Promise<RunState> {
  const runId = state.runId;
  if (status.state === "done") {
    const scratch = await Deno.makeTempDir({ prefix: "spot-fleet-import-" });
    try {
      return await importResult(ctx, queue, { state, status, scratch });
    } finally {
      await Deno.remove(scratch, { recursive: true }).catch(() => {});
    }
  }
  const failure = status.failure ?? { code: "FLEET_TASK_FAILED", message: `the task ended ${status.state}` };
  const fleetState = status.state === "cancelled" ? "cancelled" : "failed";
  await ctx.store.event(runId, {
    type: "fleet",
    state: fleetState,
    taskId: status.taskId,
    executor: status.executor,
    attempt: status.attempt || undefined,
    message: failure.message.slice(0, 500),
  });
  await moveRun(ctx, state, "failed", `the fleet task ${status.state}: ${failure.message}`.slice(0, 500), {
    failure: { code: failure.code, message: failure.message },
  });
  throw new SpotError(
    "FLEET_TASK_FAILED",
    `Run "${runId}" failed on the fleet: ${failure.code}: ${failure.message}`,
    {
      details: { runId, taskId: status.taskId, executor: status.executor, failure },
    },
  );
}

async function interrupted(ctx: SpotContext, queue: Queue, state: RunState): Promise<never> {
  await queue.cancel(state.fleet!.taskId, "the origin's spot run was interrupted").catch(() => null);
  const now = await ctx.store.load(state.runId);
  await ctx.store.save({
    ...now,
    interruption: { at: ctx.now(), signal: "SIGINT", phase: "running" },
    failure: { code: "WORKER_INTERRUPTED", message: "the fleet task was cancelled by an interrupt" },
    updatedAt: ctx.now(),
  });
  throw new SpotError("WORKER_INTERRUPTED", `The fleet turn of run "${state.runId}" was interrupted`, {
    details: { runId: state.runId, nextCommand: `spot recover --id ${state.runId}` },
  });
}

/** Sends the run (or finds it out already), follows it, takes the result over. */
export async function runOnQueue(
  ctx: SpotContext,
  queue: Queue,
  runId: string,
  spec: SendSpec,
): Promise<RunState> {
  let state = await ctx.store.load(runId);
  const out = state.status === "running" && state.fleet?.role === "origin" && !state.interruption;
  if (!out) {
    requireStatus(state, ["prepared"], "run");
    await requireBaselines(ctx, state);
    state = await sendRun(ctx, queue, state, spec);
  } else if (unsent(state)) {
    state = await sendRun(ctx, queue, state, spec);
  }
  let status: TaskStatus | null;
  try {
    status = await followTask(ctx, queue, state, { signal: ctx.signal });
  } catch (error) {
    if (error instanceof SpotError && error.code === "FLEET_UNCLAIMED") {
      await moveRun(ctx, await ctx.store.load(runId), "failed", error.message, {
        failure: { code: error.code, message: error.message },
      });
    }
    throw error;
  }
  if (!status) return await interrupted(ctx, queue, state);
  return await settleTask(ctx, queue, await ctx.store.load(runId), status);
}

/** A run the executor's result left failed or blocked ends the command as the local verb would have. */
function refuseEnded(state: RunState): void {
  if (state.status !== "failed" && state.status !== "blocked") return;
  const known = (c: string | null | undefined): c is ErrorCode => !!c && Object.hasOwn(ERROR_CODES, c);
  const own = state.status === "blocked" ? state.blockedReason : state.failure?.code;
  const code = known(own) ? own : state.status === "blocked" ? "WORKER_BLOCKED" : "WORKER_FAILED";
  throw new SpotError(
    code,
    `Run "${state.runId}" ended ${state.status} on executor ${state.fleet?.executor}: ${
      state.failure?.message ?? state.status
    }`,
    { details: { runId: state.runId, failure: state.failure, executor: state.fleet?.executor } },
  );
}

/** What `spot run --on fleet` returns: the turn as `run` says it, where it ran, and its verification. */
export interface FleetRunResult extends RunResult {
  /** The executor whose attempt was taken over. */
  executor: string | null;
  /** That attempt's number (1 unless the task was redelivered). */
  attempt: number | null;
  /** The task's id on the queue. */
  taskId: string | null;
  /** The queue, as its client names it. */
  queue: string;
  /** The executor's checks passed. */
  passed: boolean;
  /** The hash a review binds to. */
  diffSha256: string | null;
  /** What to do next. */
  nextCommand: string;
}

export async function runOnFleet(ctx: SpotContext, runId: string): Promise<FleetRunResult> {
  const queue = await openQueue(ctx.config.queue, {
    client: `spot origin ${hostName()}`,
    doing: `run "${runId}" on the fleet`,
  });
  try {
    const lock = await ctx.store.lock(runId);
    try {
      const state = await runOnQueue(ctx, queue, runId, {
        turn: {},
        verify: true,
        selfReview: ctx.config.selfReview.enabled,
      });
      refuseEnded(state);
      const verification = await ctx.store.readJson<{ passed: boolean; diffSha256: string }>(
        runId,
        "verification.json",
      );
      return {
        runId,
        status: state.status,
        executor: state.fleet?.executor ?? null,
        attempt: state.fleet?.attempt ?? null,
        taskId: state.fleet?.taskId ?? null,
        queue: queue.where,
        profile: state.profile,
        provider: state.provider,
        model: state.model,
        fallbackUsed: state.fallbackUsed,
        attempts: state.workerAttempts,
        passed: verification?.passed ?? false,
        diffSha256: verification?.diffSha256 ?? null,
        nextCommand: `spot diff --id ${runId} --hunks`,
      };
    } finally {
      lock.release();
    }
  } finally {
    await queue.close();
  }
}
