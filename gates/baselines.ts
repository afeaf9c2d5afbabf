/** The gates' baselines, read so that one that cannot be trusted blocks the run (STATE_INVALID). */
import { isSpotError } from "../errors.ts";
import { blockRun } from "../lifecycle/block.ts";
import type { RunState } from "../schemas/run_state.ts";
import { type BaselineName, readBaseline } from "../store/baseline.ts";
import type { SpotContext } from "../store/context.ts";

export async function trustedBaseline<T>(ctx: SpotContext, state: RunState, name: BaselineName): Promise<T> {
  try {
    return await readBaseline<T>(ctx.store, state, name);
  } catch (error) {
    if (isSpotError(error, "STATE_INVALID")) {
      await blockRun(ctx, state, "STATE_INVALID", error.message.replace(/^Cannot trust run "[^"]+": /, ""), {
        ...error.details,
      });
    }
    throw error;
  }
}

/** Before a worker turn: both baselines are there and unchanged, or the run stops here. */
export async function requireBaselines(ctx: SpotContext, state: RunState): Promise<void> {
  await trustedBaseline(ctx, state, "locked.json");
  await trustedBaseline(ctx, state, "escape.json");
}
