/**
 * A job's tasks on the fleet (graphs/launch/place.ts): the coordinator opens the queue once, and each task's turn
 * is sent, followed and taken over like `spot run --on fleet`, holding the run's lock throughout. The task is then
 * judged by the coordinator as a local one: a turn that failed on the executor throws here as `runWorker` would;
 * a verification that failed or blocked is left for the judge to read (ownership first, as locally).
 */
import { SpotError } from "../errors.ts";
import type { PlacedTurn, TaskPlacement } from "../graphs/launch/place.ts";
import { openQueue } from "../queue/open.ts";
import type { SpotContext } from "../store/context.ts";
import { hostName } from "./fit.ts";
import { runOnQueue } from "./remote_run.ts";

export async function fleetPlacement(ctx: SpotContext): Promise<TaskPlacement> {
  const queue = await openQueue(ctx.config.queue, {
    client: `spot coordinator ${hostName()}`,
    doing: "send a job's tasks to the fleet",
  });
  return {
    async turn(tctx: SpotContext, runId: string, placed: PlacedTurn) {
      const lock = await tctx.store.lock(runId);
      try {
        const state = await runOnQueue(tctx, queue, runId, {
          turn: placed.turn,
          verify: placed.verify,
          selfReview: false,
          jobResult: placed.jobResult,
          job: placed.job,
        });
        const turned = state.transitions.some((t) => t.to === "verifying");
        if ((state.status === "failed" || state.status === "blocked") && !turned) {
          const failure = state.failure ?? { code: "WORKER_FAILED", message: state.status };
          throw new SpotError(
            state.status === "blocked" ? "WORKER_BLOCKED" : "WORKER_FAILED",
            `The run turn of run "${runId}" failed on executor ${state.fleet?.executor}: ${failure.message}`,
            { details: { runId, failure } },
          );
        }
      } finally {
        lock.release();
      }
    },
    close: () => queue.close(),
  };
}
