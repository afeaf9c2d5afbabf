/**
 * Verification in a pristine tree: a fresh worktree holding exactly the
 * verified tree, so ignored files the worker planted (conftest.py,
 * __pycache__, node_modules/.bin shims) and processes it left behind cannot
 * touch the result.
 */
import { join } from "../base/path.ts";
import { withWorktreeLock } from "../git/worktree_lock.ts";
import { git, gitText } from "../git/git.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { furnishTree } from "../workspace/furnish.ts";

export async function withPristineTree<T>(
  ctx: SpotContext,
  state: RunState,
  tree: string,
  fn: (dir: string) => Promise<T>,
): Promise<T> {
  const cwd = state.sourceRoot;
  const commit = await gitText([
    "commit-tree",
    tree,
    "-p",
    state.workerBaseRevision,
    "-m",
    `spot: pristine ${state.runId}`,
  ], {
    cwd,
    identity: state.identity,
  });
  const dir = join(ctx.paths.cacheRoot, "pristine", `${state.runId}-${crypto.randomUUID().slice(0, 8)}`);
  await Deno.mkdir(join(ctx.paths.cacheRoot, "pristine"), { recursive: true });
  await withWorktreeLock(cwd, () => git(["worktree", "add", "--quiet", "--detach", dir, commit], { cwd }));
  try {
    // The same ignored files and dependency dirs the worker had, from the source, never from its worktree.
    await furnishTree(state, dir);
    return await fn(dir);
  } finally {
    await withWorktreeLock(
      cwd,
      () => git(["worktree", "remove", "--force", dir], { cwd, allowFailure: true }),
    )
      .catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await withWorktreeLock(cwd, () => git(["worktree", "prune"], { cwd, allowFailure: true })).catch(
      () => {},
    );
  }
}
