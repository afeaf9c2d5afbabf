/**
 * The worker branch `spot cleanup` kept for a failed or blocked run (its work, should someone want it), removed
 * once `spot gc`'s window has passed. What the branch holds against the run's base is saved to the run's
 * `diff.patch` first, unless cleanup already saved the worktree's there, so nothing is lost.
 */
import { DIFF_ARGS } from "../git/delta.ts";
import { git } from "../git/git.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";

/** Removes the kept branch; returns `diff.patch` when its diff was saved now, null when it was there already. */
export async function dropKeptBranch(ctx: SpotContext, state: RunState): Promise<string | null> {
  let diffFile: string | null = null;
  if (!(await Deno.stat(ctx.store.file(state.runId, "diff.patch")).catch(() => null))) {
    const branch = `refs/heads/${state.workerBranch}`;
    const diff =
      (await git([...DIFF_ARGS, state.workerBaseRevision, branch, "--"], { cwd: state.sourceRoot }))
        .stdout;
    if (diff) diffFile = await ctx.store.writeText(state.runId, "diff.patch", diff);
  }
  await git(["branch", "-D", "--", state.workerBranch], { cwd: state.sourceRoot });
  return diffFile;
}
