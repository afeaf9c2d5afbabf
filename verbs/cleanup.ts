/** `cleanup`: remove a finished run's worktree and branch; the run directory stays. */
import { SpotError } from "../errors.ts";
import { removeWorktree } from "../git/worktree.ts";
import { TERMINAL } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";

/** What `cleanup` did: the worktree is gone, the run directory kept. */
export interface CleanupResult {
  /** The run. */
  runId: string;
  /** The run's status afterwards (`prepared`, `running`, `reviewing`, `approved`, `integrated`, `blocked`, ...). */
  status: string;
  /** Always true: the worktree and its branch are removed. */
  cleaned: true;
  /** The run directory, kept with its state, events and report. */
  retainedRunDirectory: string;
  /** Set when unintegrated work was kept on its branch. */
  retainedBranch: string | null;
}

export async function cleanupRun(ctx: SpotContext, runId: string): Promise<CleanupResult> {
  const lock = await ctx.store.lock(runId);
  try {
    const state = await ctx.store.load(runId);
    if (!TERMINAL.has(state.status)) {
      throw new SpotError(
        "CLEANUP_REFUSED",
        `Cannot clean up run "${runId}": it is ${state.status}, not finished`,
        {
          details: { hint: "cleanup runs only on integrated, failed or blocked runs" },
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
    const deleteBranch = state.status === "integrated";
    await removeWorktree(state.sourceRoot, {
      path: state.worktreePath,
      branch: state.workerBranch,
      deleteBranch,
    });
    await ctx.store.save({ ...state, cleanedAt: ctx.now(), updatedAt: ctx.now() });
    return {
      runId,
      status: state.status,
      cleaned: true,
      retainedRunDirectory: ctx.store.dir(runId),
      retainedBranch: deleteBranch ? null : state.workerBranch,
    };
  } finally {
    lock.release();
  }
}
