/** `cleanup`: remove a finished run's worktree and branch; the run directory stays, with the worktree's diff. */
import { SpotError } from "../errors.ts";
import { releaseWorktree } from "../lifecycle/release.ts";
import { TERMINAL } from "../schemas/constants.ts";
import type { SpotContext } from "../store/context.ts";
import type { Reclaimed } from "../store/ledger.ts";

/** What `cleanup` did: the worktree is gone, the run directory kept. */
export interface CleanupResult {
  /** The run. */
  runId: string;
  /** The run's status afterwards (`integrated`, `succeeded`, `failed`, `blocked`, `discarded`). */
  status: string;
  /** Always true: the worktree and its branch are removed. */
  cleaned: true;
  /** The run directory, kept with its state, events and report. */
  retainedRunDirectory: string;
  /** Set when unintegrated work was kept on its branch. */
  retainedBranch: string | null;
  /** Where the worktree's changes were saved before it went (null: it held none, or was gone already). */
  diffFile: string | null;
  /** What a killed step of this run had left (a pristine tree, a socket directory, a step process), removed. */
  reclaimed: Reclaimed[];
}

/**
 * `keepBranch`: a job's builder run that ended `integrated` though its work no longer stands (rolled back, or
 * replaced by a repair after a rollback) keeps the commit of that work on its branch.
 */
export async function cleanupRun(
  ctx: SpotContext,
  runId: string,
  options: { keepBranch?: boolean } = {},
): Promise<CleanupResult> {
  const lock = await ctx.store.lock(runId);
  try {
    const state = await ctx.store.load(runId);
    if (!TERMINAL.has(state.status)) {
      throw new SpotError(
        "CLEANUP_REFUSED",
        `Cannot clean up run "${runId}": it is ${state.status}, not finished`,
        {
          details: {
            hint: "cleanup runs only on ended runs (integrated, succeeded, failed, blocked, discarded); " +
              "spot discard drops an unfinished one",
            nextCommand: `spot discard --id ${runId}`,
          },
        },
      );
    }
    if (
      state.status === "integrated" &&
      !(await Deno.stat(ctx.store.file(runId, "report.md")).catch(() => null))
    ) {
      throw new SpotError("CLEANUP_REFUSED", `Cannot clean up run "${runId}": write its report first`, {
        details: { nextCommand: `spot report --id ${runId}` },
      });
    }
    // A landed or succeeded run's branch holds nothing to keep; a failed or blocked run's keeps its work.
    const deleteBranch = !options.keepBranch &&
      (state.status === "integrated" || state.status === "succeeded" || state.status === "discarded");
    const released = await releaseWorktree(ctx, state, { deleteBranch });
    await ctx.store.save({ ...state, cleanedAt: ctx.now(), updatedAt: ctx.now() });
    return {
      runId,
      status: state.status,
      cleaned: true,
      retainedRunDirectory: ctx.store.dir(runId),
      retainedBranch: deleteBranch ? null : state.workerBranch,
      diffFile: released.diffFile,
      // Taking the lock reclaimed what a killed process had left; say what that was.
      reclaimed: lock.reclaimed,
    };
  } finally {
    lock.release();
  }
}
