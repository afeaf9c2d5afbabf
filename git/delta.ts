/**
 * The worker's delta: a tree built from the worktree in a fresh index, and the
 * diff from the base to it. The sha256 of that exact text is what a review
 * approves and what approve commits.
 */
import { git } from "./git.ts";
import { sha256Hex } from "./hash.ts";
import { tempIndexPath } from "./temp_index.ts";
import { treeOfWorktree, type WorktreeRef } from "./worktree.ts";

export interface Delta {
  base: string;
  tree: string;
  diff: string;
  diffSha256: string;
  diffBytes: number;
}

export const DIFF_ARGS = [
  "diff",
  "--no-renames",
  "--full-index",
  "--binary",
  "--no-ext-diff",
  "--no-textconv",
];

export async function diffTrees(worktree: WorktreeRef, from: string, to: string): Promise<string> {
  return (await git([...DIFF_ARGS, from, to, "--"], { cwd: worktree.path, gitDir: worktree.gitDir })).stdout;
}

/**
 * Computes the delta of `worktree` against `base`; `scratchDir` holds the temporary index. `onTree` hears the
 * tree as soon as it is written, before the diff (verify starts checking it out then).
 */
export async function computeDelta(
  worktree: WorktreeRef,
  base: string,
  scratchDir: string,
  onTree?: (tree: string) => void,
): Promise<Delta> {
  const indexFile = tempIndexPath(scratchDir, "delta");
  const tree = await treeOfWorktree(worktree, base, indexFile);
  onTree?.(tree);
  const diff = await diffTrees(worktree, base, tree);
  return {
    base,
    tree,
    diff,
    diffSha256: await sha256Hex(diff),
    diffBytes: new TextEncoder().encode(diff).length,
  };
}
