/**
 * A succeeded builder's verified commit: the exact tree spot verified, committed on the commit its run's diff
 * counts from (its start), so it holds the builder's own change and nothing of what it built on. The tasks
 * after it start from it (graphs/launch/start.ts), and a private ref `refs/spot/<job>/tasks/<task>` keeps it
 * alive until the job is gone. Made from the worktree as it is now, and refused (DIFF_CHANGED) unless that is
 * still the diff spot verified.
 */
import { SpotError } from "../../errors.ts";
import { computeDelta } from "../../git/delta.ts";
import { git, gitText } from "../../git/git.ts";
import { worktreeOf } from "../../lifecycle/worktree.ts";
import type { SpotContext } from "../../store/context.ts";

export const verifiedRef = (jobId: string, taskId: string) => `refs/spot/${jobId}/tasks/${taskId}`;

export interface VerifiedCommit {
  /** Where the builder's run started: its diff counts from here. */
  startCommit: string;
  /** Its verified tree on top of `startCommit`. */
  verifiedCommit: string;
}

export async function commitVerified(
  ctx: SpotContext,
  runId: string,
  options: { jobId: string; taskId: string; diffSha256: string },
): Promise<VerifiedCommit> {
  const run = await ctx.store.load(runId);
  const delta = await computeDelta(await worktreeOf(run), run.workerBaseRevision, ctx.store.dir(runId));
  if (delta.diffSha256 !== options.diffSha256) {
    throw new SpotError(
      "DIFF_CHANGED",
      `Cannot record the work of task "${options.taskId}": its worktree changed since spot verified it`,
      { details: { verified: options.diffSha256, now: delta.diffSha256 } },
    );
  }
  // Objects and refs live in the source's git dir; the worktree (whatever its .git names) is never asked.
  const cwd = run.sourceRoot;
  const verifiedCommit = await gitText(["commit-tree", delta.tree, "-p", run.workerBaseRevision, "-F", "-"], {
    cwd,
    identity: run.identity,
    stdinText: `spot: verified work of task "${options.taskId}" of job ${options.jobId}\n\n` +
      `Run: ${runId}\nDiff-Sha256: ${delta.diffSha256}\n`,
  });
  await git(["update-ref", verifiedRef(options.jobId, options.taskId), verifiedCommit], { cwd });
  return { startCommit: run.workerBaseRevision, verifiedCommit };
}
