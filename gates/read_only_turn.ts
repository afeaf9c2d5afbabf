/** A turn that must not write (self-review): the worktree's diff after it is the one verify hashed, or the run stops. */
import { computeDelta } from "../git/delta.ts";
import { blockRun } from "../lifecycle/block.ts";
import { worktreeOf } from "../lifecycle/worktree.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";

export async function guardReadOnlyTurn(
  ctx: SpotContext,
  state: RunState,
  verifiedSha: string,
): Promise<void> {
  const delta = await computeDelta(
    await worktreeOf(state),
    state.workerBaseRevision,
    ctx.store.dir(state.runId),
  );
  if (delta.diffSha256 === verifiedSha) return;
  await blockRun(
    ctx,
    state,
    "SECURITY_BLOCKED",
    "the self-review turn changed the worktree, which it may only read",
    { verified: verifiedSha, now: delta.diffSha256 },
  );
}
