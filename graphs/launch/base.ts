/**
 * The commit every task of a job starts from, taken once when the job first starts: the checkout's HEAD, or
 * with `includeUncommitted` (the default) and a dirty checkout, a commit on top of HEAD holding the user's
 * uncommitted work (tracked changes and untracked files git does not ignore), built in a private index so the
 * user's own index is never touched, and kept alive by a private ref `refs/spot/<job>/base`. Tasks started
 * later see the same base, whatever the user edits meanwhile.
 */
import { git, gitText } from "../../git/git.ts";
import { tempIndexPath } from "../../git/temp_index.ts";
import { userIdentity } from "../../git/repo.ts";

export interface JobBase {
  /** The checkout's HEAD when the job started. */
  head: string;
  /** Where the tasks start: `head`, or the snapshot of the uncommitted work on top of it. */
  commit: string;
  /** The private ref holding `commit` when it is a snapshot. */
  ref?: string;
}

export const baseRef = (jobId: string) => `refs/spot/${jobId}/base`;

export async function snapshotBase(
  cwd: string,
  jobId: string,
  options: { includeUncommitted: boolean; scratchDir: string },
): Promise<JobBase> {
  const head = await gitText(["rev-parse", "--verify", "HEAD^{commit}"], { cwd });
  if (!options.includeUncommitted) return { head, commit: head };
  const status = await gitText(["status", "--porcelain=v1", "--untracked-files=all"], { cwd });
  if (status === "") return { head, commit: head };
  const index = { cwd, indexFile: tempIndexPath(options.scratchDir, "base") };
  try {
    await git(["read-tree", head], index);
    await git(["add", "--all", "--", "."], index);
    const tree = await gitText(["write-tree"], index);
    const commit = await gitText(
      ["commit-tree", tree, "-p", head, "-F", "-"],
      {
        cwd,
        identity: await userIdentity(cwd),
        stdinText: `spot: the uncommitted work job ${jobId} starts from\n`,
      },
    );
    const ref = baseRef(jobId);
    await git(["update-ref", ref, commit], { cwd });
    return { head, commit, ref };
  } finally {
    await Deno.remove(index.indexFile).catch(() => {});
  }
}
