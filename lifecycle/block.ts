/** Ends a run as blocked (its work stays on the worker branch) or failed, and throws the matching error. */
import { type ErrorCode, SpotError } from "../errors.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { moveRun } from "./move.ts";

export async function blockRun(
  ctx: SpotContext,
  state: RunState,
  code: ErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): Promise<never> {
  await moveRun(ctx, state, "blocked", `${code}: ${message}`, {
    failure: { code, message, details },
    blockedReason: code,
  });
  throw new SpotError(code, `Run "${state.runId}" is blocked: ${message}`, {
    details: { runId: state.runId, workerBranch: state.workerBranch, ...details },
  });
}

/** Ends a run as failed (nothing more can come of it) and throws the matching error. */
export async function failRun(
  ctx: SpotContext,
  state: RunState,
  code: ErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): Promise<never> {
  await moveRun(ctx, state, "failed", `${code}: ${message}`, { failure: { code, message, details } });
  throw new SpotError(code, `Run "${state.runId}" failed: ${message}`, {
    details: { runId: state.runId, workerBranch: state.workerBranch, ...details },
  });
}

/** Why a run at its revision limit ends: every round is used. */
export function revisionLimitMessage(state: RunState, max: number): string {
  return `all ${max} revision round(s) are used (round ${state.revisionRound}), so it cannot be revised again`;
}
