/**
 * The worker's isolated checkout: a worktree on branch `pi-worker/<runId>` at
 * the base revision, plus a snapshot commit of the user's uncommitted work
 * made without touching the user's index.
 */
import { dirname, join } from "node:path";
import { git, gitText, type Identity } from "./git.ts";
import { untrackedFiles } from "./fingerprint.ts";

export interface WorktreeResult {
  workerBaseRevision: string;
  snapshotCommit: string | null;
}

export async function addWorktree(
  source: string,
  options: { path: string; branch: string; base: string },
): Promise<void> {
  await Deno.mkdir(dirname(options.path), { recursive: true });
  await git(["worktree", "add", "--quiet", "-b", options.branch, options.path, options.base], {
    cwd: source,
  });
}

/** Copies the user's uncommitted work into the worktree and commits it there. */
export async function snapshotDirtySource(
  source: string,
  options: { worktree: string; runId: string; identity: Identity; indexFile: string },
): Promise<WorktreeResult> {
  const patch = await git(["diff", "--binary", "--no-ext-diff", "--no-textconv", "HEAD"], { cwd: source });
  if (patch.stdout.length > 0) {
    await git(["apply", "--binary", "--whitespace=nowarn", "-"], {
      cwd: options.worktree,
      stdinText: patch.stdout,
    });
  }
  for (const path of await untrackedFiles(source)) {
    const from = join(source, path);
    const to = join(options.worktree, path);
    await Deno.mkdir(dirname(to), { recursive: true });
    const info = await Deno.lstat(from);
    if (info.isSymlink) await Deno.symlink(await Deno.readLink(from), to);
    else await Deno.copyFile(from, to);
  }
  const head = await gitText(["rev-parse", "HEAD"], { cwd: options.worktree });
  const tree = await treeOfWorktree(options.worktree, head, options.indexFile);
  const commit = await gitText(
    ["commit-tree", tree, "-p", head, "-m", `chore(spot): snapshot source ${options.runId}`],
    { cwd: options.worktree, identity: options.identity },
  );
  await git(["reset", "--quiet", "--soft", commit], { cwd: options.worktree });
  await git(["read-tree", commit], { cwd: options.worktree });
  return { workerBaseRevision: commit, snapshotCommit: commit };
}

/**
 * The tree of everything in the worktree, built in a fresh index seeded from
 * `base`, so flags a worker set on the real index (assume-unchanged,
 * skip-worktree) hide nothing.
 */
export async function treeOfWorktree(worktree: string, base: string, indexFile: string): Promise<string> {
  await Deno.remove(indexFile).catch(() => {});
  try {
    await git(["read-tree", base], { cwd: worktree, indexFile });
    await git(["add", "--all", "--", "."], { cwd: worktree, indexFile });
    return await gitText(["write-tree"], { cwd: worktree, indexFile });
  } finally {
    await Deno.remove(indexFile).catch(() => {});
  }
}

/** Removes the worktree; the branch goes too only when asked (unintegrated work stays on it). */
export async function removeWorktree(
  source: string,
  options: { path: string; branch: string; deleteBranch: boolean },
): Promise<void> {
  await git(["worktree", "remove", "--force", options.path], { cwd: source, allowFailure: true });
  await git(["worktree", "prune"], { cwd: source, allowFailure: true });
  if (options.deleteBranch) await git(["branch", "-D", options.branch], { cwd: source, allowFailure: true });
}
