/**
 * Letting go of a run's worktree without losing its work: what the worktree changes against the run's base is
 * written to the run's `diff.patch` first (commits on the worker branch included), then the worktree goes,
 * and its branch when asked. `spot cleanup`, `spot discard` and `spot gc` all end a worktree here.
 */
import { computeDelta } from "../git/delta.ts";
import { removeWorktree } from "../git/worktree.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { worktreeOf } from "./worktree.ts";

export interface Released {
  /** `diff.patch` when the worktree's changes were saved there; null when there was no worktree to read. */
  diffFile: string | null;
  /** Bytes of the saved diff (0: the worktree changed nothing). */
  diffBytes: number;
  /** The worktree existed and was removed. */
  worktreeRemoved: boolean;
  branchRemoved: boolean;
}

async function exists(path: string): Promise<boolean> {
  return (await Deno.stat(path).catch(() => null)) !== null;
}

/**
 * Saves the worktree's diff and removes the worktree (and the branch with `deleteBranch`). With `always`,
 * an empty diff is written too (a discarded run says it dropped nothing); otherwise `diff.patch` is only
 * rewritten when the worktree holds changes, so a verified diff is never replaced by an empty one.
 */
export async function releaseWorktree(
  ctx: SpotContext,
  state: RunState,
  options: { deleteBranch: boolean; always?: boolean },
): Promise<Released> {
  const there = state.worktreeReady && await exists(state.worktreePath);
  let diffFile: string | null = null;
  let diffBytes = 0;
  if (there) {
    const delta = await computeDelta(
      await worktreeOf(state),
      state.workerBaseRevision,
      ctx.store.dir(state.runId),
    )
      .catch(() => null);
    if (delta && (options.always || delta.diffBytes > 0)) {
      diffFile = await ctx.store.writeText(state.runId, "diff.patch", delta.diff);
      diffBytes = delta.diffBytes;
    }
  }
  await removeWorktree(state.sourceRoot, {
    path: state.worktreePath,
    branch: state.workerBranch,
    deleteBranch: options.deleteBranch,
  });
  // `git worktree remove` refuses a directory git no longer knows; whatever is left of it goes too, but only
  // under spot's own worktrees directory (a path in a state file is never trusted further than that).
  if (state.worktreePath.startsWith(`${ctx.paths.worktreesDir}/`)) {
    await Deno.remove(state.worktreePath, { recursive: true }).catch(() => {});
  }
  return { diffFile, diffBytes, worktreeRemoved: there, branchRemoved: options.deleteBranch };
}
