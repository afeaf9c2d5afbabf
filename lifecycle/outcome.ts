/** Where a run goes when a worker turn fails: failed, blocked, or interrupted; provider walls keep the work. */
import type { WorkerOutcome } from "../adapters/types.ts";
import { SpotError } from "../errors.ts";
import type { Phase } from "../schemas/events.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { moveRun } from "./move.ts";
import { RESUMABLE_FAILURES } from "./ended.ts";
import { interruptSignal } from "../base/interrupt.ts";

export { RESUMABLE_FAILURES };

/** What to tell the parent when a provider wall stopped the worker: the work is kept, and how to go on. */
function wallDetails(
  state: RunState,
  failure: NonNullable<WorkerOutcome["failure"]>,
): Record<string, unknown> {
  if (!RESUMABLE_FAILURES.has(failure.code)) return {};
  const when = failure.resetAt ? `after ${failure.resetAt}` : "when the provider answers again";
  return {
    ...(failure.resetAt ? { resetAt: failure.resetAt } : {}),
    partialWork: `kept in ${state.worktreePath} (branch ${state.workerBranch})`,
    nextCommand: `spot recover --id ${state.runId}`,
    redispatch: `${when}, \`spot recover --id ${state.runId}\` resumes this run where it stopped; ` +
      "or prepare the same task with another profile (--profile)",
  };
}

/** Persists a failed turn (blocked, failed, or interrupted) and throws the matching error. */
export async function failTurn(
  ctx: SpotContext,
  state: RunState,
  phase: Phase,
  outcome: WorkerOutcome,
): Promise<never> {
  const failure = outcome.failure ?? { code: "cli_crash", class: "permanent", message: "The worker failed" };
  if (failure.code === "cancelled") {
    // Recorded at once, as admission would reclaim a run whose owner is gone: failed, its slot free, and
    // recover resumes it from the phase it was in (verbs/recover.ts), so nothing waits for the next prepare.
    const caught = interruptSignal(ctx.signal);
    // The record's field predates naming the signal: an abort that no signal caused keeps its old SIGINT.
    const signal = caught ?? "SIGINT";
    const nextCommand = `spot recover --id ${state.runId}`;
    const by = caught ? ` by ${caught}` : "";
    const message = `the ${phase} turn was interrupted${by}; the worker was stopped and its work is kept ` +
      `in ${state.worktreePath}: ${nextCommand} resumes it`;
    await moveRun(ctx, state, "failed", `WORKER_INTERRUPTED: ${message}`, {
      failure: {
        code: "WORKER_INTERRUPTED",
        class: failure.class,
        message,
        details: { phase: state.status, signal, nextCommand },
      },
      interruption: { at: ctx.now(), signal, phase: state.status },
    });
    throw new SpotError("WORKER_INTERRUPTED", `The ${phase} turn of run "${state.runId}" was interrupted`, {
      details: { runId: state.runId, signal, nextCommand },
    });
  }
  const blocked = failure.class === "blocking";
  const to = blocked ? "blocked" : "failed";
  const details = wallDetails(state, failure);
  await moveRun(ctx, state, to, `${phase} turn ${failure.code}`, {
    failure: { code: failure.code, class: failure.class, message: failure.message, details },
    blockedReason: blocked ? failure.message : state.blockedReason,
  });
  throw new SpotError(
    blocked ? "WORKER_BLOCKED" : "WORKER_FAILED",
    `The ${phase} turn of run "${state.runId}" failed: ${failure.message}`,
    { details: { runId: state.runId, failure, ...details } },
  );
}
