/**
 * The worker's isolated checkout: a worktree on branch `pi-worker/<runId>` at
 * the base revision, plus a snapshot commit of the user's uncommitted work
 * made without touching the user's index.
 */
import { dirname, join } from "../base/path.ts";
import { git, gitText, type Identity } from "./git.ts";
import { untrackedFiles } from "./fingerprint.ts";
import { withWorktreeLock } from "./worktree_lock.ts";

export interface WorktreeResult {
  workerBaseRevision: string;
  snapshotCommit: string | null;
}

/** A linked worktree and the git dir spot created for it; spot's git never asks the worktree which. */
export interface WorktreeRef {
  path: string;
  gitDir: string;
}

/** Adds the worktree and returns it with its git dir, read before anything else can touch it. */
export async function addWorktree(
  source: string,
  options: { path: string; branch: string; base: string },
): Promise<WorktreeRef> {
  await Deno.mkdir(dirname(options.path), { recursive: true });
  await withWorktreeLock(
    source,
    () =>
      git(["worktree", "add", "--quiet", "-b", options.branch, options.path, options.base], { cwd: source }),
  );
  return {
    path: options.path,
    gitDir: await gitText(["rev-parse", "--absolute-git-dir"], { cwd: options.path }),
  };
}

/** Copies the user's uncommitted work into the worktree and commits it there. */
export async function snapshotDirtySource(
  source: string,
  options: { worktree: WorktreeRef; runId: string; identity: Identity; indexFile: string },
): Promise<WorktreeResult> {
  const wt = { cwd: options.worktree.path, gitDir: options.worktree.gitDir };
  const patch = await git(["diff", "--binary", "--no-ext-diff", "--no-textconv", "HEAD"], { cwd: source });
  if (patch.stdout.length > 0) {
    await git(["apply", "--binary", "--whitespace=nowarn", "-"], { ...wt, stdinText: patch.stdout });
  }
  for (const path of await untrackedFiles(source)) {
    const from = join(source, path);
    const to = join(options.worktree.path, path);
    await Deno.mkdir(dirname(to), { recursive: true });
    const info = await Deno.lstat(from);
    if (info.isSymlink) await Deno.symlink(await Deno.readLink(from), to);
    else await Deno.copyFile(from, to);
  }
  const head = await gitText(["rev-parse", "HEAD"], wt);
  const tree = await treeOfWorktree(options.worktree, head, options.indexFile);
  const commit = await gitText(
    ["commit-tree", tree, "-p", head, "-m", `chore(spot): snapshot source ${options.runId}`],
    { ...wt, identity: options.identity },
  );
  await git(["reset", "--quiet", "--soft", commit], wt);
  await git(["read-tree", commit], wt);
  return { workerBaseRevision: commit, snapshotCommit: commit };
}

/**
 * The tree of everything in the worktree, built in a fresh index seeded from
 * `base`, so flags a worker set on the real index (assume-unchanged,
 * skip-worktree) hide nothing.
 */
export async function treeOfWorktree(
  worktree: WorktreeRef,
  base: string,
  indexFile: string,
): Promise<string> {
  await Deno.remove(indexFile).catch(() => {});
  const wt = { cwd: worktree.path, gitDir: worktree.gitDir, indexFile };
  try {
    await git(["read-tree", base], wt);
    await git(["add", "--all", "--", "."], wt);
    return await gitText(["write-tree"], wt);
  } finally {
    await Deno.remove(indexFile).catch(() => {});
  }
}

/** Removes the worktree; the branch goes too only when asked (unintegrated work stays on it). */
export async function removeWorktree(
  source: string,
  options: { path: string; branch: string; deleteBranch: boolean },
): Promise<void> {
  await withWorktreeLock(source, async () => {
    await git(["worktree", "remove", "--force", options.path], { cwd: source, allowFailure: true });
    await git(["worktree", "prune"], { cwd: source, allowFailure: true });
  }).catch(() => {});
  if (options.deleteBranch) await git(["branch", "-D", options.branch], { cwd: source, allowFailure: true });
}

/**
 * Removes a detached worktree spot made for a moment (a pristine tree, a scratch tree): its directory, and its
 * entry in the repository, so `git worktree list` no longer names it and nothing pins its commit. Safe to
 * repeat, and on a directory git never finished adding or a repository that is gone.
 */
export async function dropWorktree(repo: string, path: string): Promise<void> {
  const removed = await withWorktreeLock(
    repo,
    () => git(["worktree", "remove", "--force", path], { cwd: repo, allowFailure: true }),
  )
    .catch(() => null);
  await Deno.remove(path, { recursive: true }).catch(() => {});
  // `worktree remove` took its entry with it; only when it could not is the entry pruned.
  if (removed?.exitCode !== 0) {
    await withWorktreeLock(repo, () => git(["worktree", "prune"], { cwd: repo, allowFailure: true })).catch(
      () => {},
    );
  }
}

/** Puts a worktree back at `base`: tracked files reset, untracked files and directories removed. */
export async function rollbackWorktree(ref: WorktreeRef, base: string): Promise<void> {
  const opts = { cwd: ref.path, gitDir: ref.gitDir };
  await git(["reset", "--quiet", "--hard", base], opts);
  await git(["clean", "-q", "-f", "-d"], opts);
}
