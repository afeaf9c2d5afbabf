/** The run's worktree: a linked worktree on the worker branch, with the source's uncommitted work snapshotted. */
import { addWorktree, snapshotDirtySource } from "../git/worktree.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";

/** Creates the run's worktree (and snapshot of a dirty source) and marks it ready. */
export async function materializeWorktree(ctx: SpotContext, state: RunState): Promise<RunState> {
  let next = state;
  await addWorktree(state.sourceRoot, {
    path: state.worktreePath,
    branch: state.workerBranch,
    base: state.baseRevision,
  });
  if (state.sourceDirty) {
    const snap = await snapshotDirtySource(state.sourceRoot, {
      worktree: state.worktreePath,
      runId: state.runId,
      identity: state.identity,
      indexFile: ctx.store.file(state.runId, ".snapshot.index"),
    });
    next = { ...next, ...snap };
  }
  return await ctx.store.save({ ...next, worktreeReady: true, updatedAt: ctx.now() });
}
