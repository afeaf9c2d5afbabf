/** A legal transition, persisted and logged: the table decides whether, the store keeps the result. */
import type { RunState, Status } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { finishTurnTransition, followUpTransition, transition } from "./state_table.ts";

export async function moveRun(
  ctx: Pick<SpotContext, "store" | "now">,
  state: RunState,
  to: Status,
  reason: string,
  patch: Partial<RunState> = {},
): Promise<RunState> {
  const next = { ...transition(state, to, reason, ctx.now()), ...patch };
  await ctx.store.save(next);
  await ctx.store.event(state.runId, { type: "transition", from: state.status, to, reason });
  return next;
}

/** A follow-up turn (`spot agent send`): verifying back to running, persisted and logged like any move. */
export async function resumeRun(
  ctx: Pick<SpotContext, "store" | "now">,
  state: RunState,
  reason: string,
): Promise<RunState> {
  const next = followUpTransition(state, reason, ctx.now());
  await ctx.store.save(next);
  await ctx.store.event(state.runId, { type: "transition", from: state.status, to: "running", reason });
  return next;
}

/** A turn with nothing to land that ended well (a job's read-only task, a brief): verifying to succeeded. */
export async function finishEmptyRun(
  ctx: Pick<SpotContext, "store" | "now">,
  state: RunState,
  reason: string,
): Promise<RunState> {
  const next = finishTurnTransition(state, reason, ctx.now());
  await ctx.store.save(next);
  await ctx.store.event(state.runId, { type: "transition", from: state.status, to: "succeeded", reason });
  return next;
}
