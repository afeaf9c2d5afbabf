/** The run's worktree: a linked worktree on the worker branch, with the source's uncommitted work snapshotted. */
import { basename, join } from "../base/path.ts";
import { gitCommonDir } from "../git/repo.ts";
import { addWorktree, snapshotDirtySource, type WorktreeRef } from "../git/worktree.ts";
import { tempIndexPath } from "../git/temp_index.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";

/** Creates the run's worktree (and snapshot of a dirty source) and marks it ready. */
export async function materializeWorktree(ctx: SpotContext, state: RunState): Promise<RunState> {
  const worktree = await addWorktree(state.sourceRoot, {
    path: state.worktreePath,
    branch: state.workerBranch,
    base: state.checkoutCommit ?? state.startCommit ?? state.baseRevision,
  });
  let next: RunState = { ...state, worktreeGitDir: worktree.gitDir };
  if (state.startCommit) {
    // A job's tasks share the base the job took once; a run of its own takes no other snapshot.
    const snapshotCommit = state.startCommit === state.baseRevision ? null : state.startCommit;
    next = { ...next, workerBaseRevision: state.startCommit, snapshotCommit };
  } else if (state.sourceDirty) {
    const snap = await snapshotDirtySource(state.sourceRoot, {
      worktree,
      runId: state.runId,
      identity: state.identity,
      indexFile: tempIndexPath(ctx.store.dir(state.runId), "snapshot"),
    });
    next = { ...next, ...snap };
  }
  return await ctx.store.save({ ...next, worktreeReady: true, updatedAt: ctx.now() });
}

/**
 * The worktree with the git dir spot made for it. Runs prepared before spot recorded it get the one git
 * names for a worktree at that path (`worktrees/<name>` under the source's common dir), never one read from
 * the worktree's own `.git` file.
 */
export async function worktreeOf(state: RunState): Promise<WorktreeRef> {
  if (state.worktreeGitDir) return { path: state.worktreePath, gitDir: state.worktreeGitDir };
  const common = await gitCommonDir(state.sourceRoot);
  return { path: state.worktreePath, gitDir: join(common, "worktrees", basename(state.worktreePath)) };
}
