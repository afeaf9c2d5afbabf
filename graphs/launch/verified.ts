/**
 * A succeeded builder's verified commit: the exact tree spot verified, committed on the commit its run's diff
 * counts from (its start), so it holds the builder's own change and nothing of what it built on. The tasks
 * after it start from it (graphs/launch/start.ts), and a private ref `refs/spot/<job>/tasks/<task>` keeps it
 * alive until the job is gone. The tree is the one `verify` recorded (or, for a run verified before it did,
 * the worktree's now), refused (DIFF_CHANGED) unless its diff is the one spot verified.
 */
import { SpotError } from "../../errors.ts";
import { computeDelta, diffTrees } from "../../git/delta.ts";
import { sha256Hex } from "../../git/hash.ts";
import { git, gitText } from "../../git/git.ts";
import { worktreeOf } from "../../lifecycle/worktree.ts";
import type { SpotContext } from "../../store/context.ts";

export const verifiedRef = (jobId: string, taskId: string) => `refs/spot/${jobId}/tasks/${taskId}`;

/** Removes every private ref of the job (its base and its builders' verified commits): the job is gone. */
export async function dropJobRefs(cwd: string, jobId: string): Promise<string[]> {
  const listed = await gitText(["for-each-ref", "--format=%(refname)", `refs/spot/${jobId}/`], {
    cwd,
    allowFailure: true,
  }).catch(() => "");
  const refs = listed.split("\n").filter(Boolean);
  for (const ref of refs) await git(["update-ref", "-d", ref], { cwd, allowFailure: true });
  return refs;
}

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
  const worktree = await worktreeOf(run);
  const recorded = (await ctx.store.readJson<{ tree?: string }>(runId, "verification.json"))?.tree;
  const delta = recorded
    ? {
      tree: recorded,
      diffSha256: await sha256Hex(await diffTrees(worktree, run.workerBaseRevision, recorded)),
    }
    : await computeDelta(worktree, run.workerBaseRevision, ctx.store.dir(runId));
  if (delta.diffSha256 !== options.diffSha256) {
    throw new SpotError(
      "DIFF_CHANGED",
      `Cannot record the work of task "${options.taskId}": it is not the diff spot verified`,
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
