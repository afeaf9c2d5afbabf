/**
 * Where the checks at integration run: a scratch worktree of the result being landed, under
 * `<cache>/landing/`, furnished like a pristine verification tree (the same ignored files and dependency
 * dirs, from the source). Whatever the checks write there (bytecode, build outputs, caches) goes with the tree;
 * the user's checkout is never a check's working directory.
 *
 * A scratch tree is leased in its run's ledger before it exists (store/ledger.ts: recover, cleanup and gc
 * reclaim it), and made only under the repository's landing lock (git/landing_lock.ts), so one a killed
 * landing left behind is also found by the next landing into that repository and removed before it starts.
 */
import { join } from "../base/path.ts";
import { git, gitText } from "../git/git.ts";
import type { WorktreeRef } from "../git/worktree.ts";
import { withWorktreeLock } from "../git/worktree_lock.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { takeLease } from "../store/ledger.ts";
import { furnishTree } from "../workspace/furnish.ts";

export const scratchRoot = (ctx: SpotContext) => join(ctx.paths.cacheRoot, "landing");

async function removeTree(repo: string, path: string): Promise<void> {
  const removed = await withWorktreeLock(
    repo,
    () => git(["worktree", "remove", "--force", path], { cwd: repo, allowFailure: true }),
  ).catch(() => null);
  await Deno.remove(path, { recursive: true }).catch(() => {});
  // `worktree remove` took its entry with it; only when it could not is the entry pruned.
  if (removed?.exitCode !== 0) {
    await withWorktreeLock(repo, () => git(["worktree", "prune"], { cwd: repo, allowFailure: true }))
      .catch(() => {});
  }
}

/**
 * Removes the scratch trees of this cache that `repo` still lists (a landing killed before it could); call it
 * holding the repository's landing lock, which no live landing's tree outlives. Returns what it removed.
 */
export async function reclaimScratchTrees(ctx: SpotContext, repo: string): Promise<string[]> {
  const root = scratchRoot(ctx);
  // No tree under the root, nothing left registered: the usual case costs one directory read.
  const entries = await Array.fromAsync(Deno.readDir(root)).catch(() => []);
  if (entries.length === 0) return [];
  const real = await Deno.realPath(root).catch(() => root);
  const list = await git(["worktree", "list", "--porcelain", "-z"], { cwd: repo, allowFailure: true });
  const left = list.stdout.split("\0")
    .filter((l) => l.startsWith("worktree "))
    .map((l) => l.slice("worktree ".length))
    .filter((p) => p.startsWith(`${root}/`) || p.startsWith(`${real}/`));
  for (const path of left) await removeTree(repo, path);
  return left;
}

export interface ScratchOptions {
  /** The user's repository. */
  repo: string;
  /** The commit the tree starts at. */
  commit: string;
  /** The run whose ignored files and dependency dirs the tree gets (workspace/furnish.ts). */
  furnish: RunState;
  /** Names the tree's directory: the run or job it lands. */
  label: string;
}

/** Runs `fn` in a fresh detached worktree at `commit`, removed afterwards whatever happens. */
export async function withScratchTree<T>(
  ctx: SpotContext,
  options: ScratchOptions,
  fn: (tree: WorktreeRef) => Promise<T>,
): Promise<T> {
  const { repo } = options;
  await reclaimScratchTrees(ctx, repo);
  const path = join(scratchRoot(ctx), `${options.label}-${crypto.randomUUID().slice(0, 8)}`);
  await Deno.mkdir(scratchRoot(ctx), { recursive: true });
  // Written down before it exists, in the run's ledger: recover, cleanup and gc reclaim it after a kill too.
  const lease = await takeLease(ctx.store.dir(options.furnish.runId), {
    kind: "worktree",
    what: "scratch tree",
    path,
    repo,
  });
  try {
    await withWorktreeLock(
      repo,
      () => git(["worktree", "add", "--quiet", "--detach", path, options.commit], { cwd: repo }),
    );
    // Read once, before any check runs there: spot's git never asks the tree's own `.git` file again.
    const gitDir = await gitText(["rev-parse", "--absolute-git-dir"], { cwd: path });
    await furnishTree(options.furnish, path);
    return await fn({ path, gitDir });
  } finally {
    await removeTree(repo, path);
    await lease.release();
  }
}
