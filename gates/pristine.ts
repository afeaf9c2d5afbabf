/**
 * Verification in a pristine tree: a fresh worktree holding exactly the
 * verified tree, so ignored files the worker planted (conftest.py,
 * __pycache__, node_modules/.bin shims) and processes it left behind cannot
 * touch the result.
 */
import { join } from "../base/path.ts";
import { withWorktreeLock } from "../git/worktree_lock.ts";
import { dropWorktree } from "../git/worktree.ts";
import { git, gitText } from "../git/git.ts";
import { gitCommonDir } from "../git/repo.ts";
import { takeLease } from "../store/ledger.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { furnishTree } from "../workspace/furnish.ts";

/** Where a run's next pristine tree goes: decided before it is built, so a step can be started for it. */
export function pristineDir(ctx: SpotContext, state: RunState): string {
  return join(ctx.paths.cacheRoot, "pristine", `${state.runId}-${crypto.randomUUID().slice(0, 8)}`);
}

/** A pristine tree checked out (not yet furnished), and how to remove it. */
export interface PristineTree {
  dir: string;
  /** The ignored files and dependency dirs the worker had, from the source: only for a delta that passed. */
  furnish(): Promise<void>;
  /** Removes the tree and its entry in the user's repository; harmless twice. */
  drop(): Promise<void>;
}

/**
 * Checks the tree out in `dir`: git's own checkout only, which verify starts while it still scans the delta.
 * Nothing of the source is copied in before `furnish`, which runs only once the delta passed the gates (a
 * link the scan refuses could otherwise lead a copy outside the tree).
 */
export async function checkOutPristine(
  ctx: SpotContext,
  state: RunState,
  tree: string,
  dir = pristineDir(ctx, state),
): Promise<PristineTree> {
  const cwd = state.sourceRoot;
  // The commit, the lease and the lookup of the worktree lock's dir are independent: all three at once.
  const committed = gitText([
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
  void gitCommonDir(cwd).catch(() => {});
  // Written down before it exists: a `kill -9` skips `drop`, and the next verb on the run (or recover,
  // cleanup, gc) finds the lease and removes the tree and its entry in the user's repository.
  const leased = (async () => {
    await Deno.mkdir(join(ctx.paths.cacheRoot, "pristine"), { recursive: true });
    return await takeLease(ctx.store.dir(state.runId), {
      kind: "worktree",
      what: "pristine tree",
      path: dir,
      repo: cwd,
    });
  })();
  const [commit, lease] = await Promise.allSettled([committed, leased]);
  if (commit.status === "rejected" || lease.status === "rejected") {
    if (lease.status === "fulfilled") await lease.value.release();
    throw commit.status === "rejected" ? commit.reason : (lease as PromiseRejectedResult).reason;
  }
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await dropWorktree(cwd, dir);
    await lease.value.release();
  };
  try {
    await withWorktreeLock(
      cwd,
      () => git(["worktree", "add", "--quiet", "--detach", dir, commit.value], { cwd }),
    );
  } catch (error) {
    await drop();
    throw error;
  }
  return { dir, furnish: () => furnishTree(state, dir), drop };
}
