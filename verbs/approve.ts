/**
 * `approve`: every gate re-checked, then the exact verified tree is committed
 * on the worker branch. The approval is bound to the diff hash.
 */
import { SpotError } from "../errors.ts";
import { git, gitText } from "../git/git.ts";
import type { SpotContext } from "../store/context.ts";
import { blockRun } from "../lifecycle/block.ts";
import { blockSourceChanged } from "../lifecycle/source_changed.ts";
import { readReview, requireReviewedHash } from "../config/review_load.ts";
import { scanRun } from "../gates/scan_run.ts";
import { requireStatus } from "../lifecycle/state_table.ts";
import { loadTask } from "../store/task_file.ts";
import { moveRun } from "../lifecycle/move.ts";
import { recordInputFile } from "../gates/input_files.ts";

/** The seed keeps commit subjects to one readable line. */
const MAX_MESSAGE_CHARS = 200;

/** What `approve` did: the verified tree committed on the worker branch. */
export interface ApproveResult {
  /** The run. */
  runId: string;
  /** The run's status afterwards (`prepared`, `running`, `reviewing`, `approved`, `integrated`, `blocked`, ...). */
  status: string;
  /** The commit of exactly the verified tree, on the worker branch. */
  implementationCommit: string;
}

export interface ApproveOptions {
  /**
   * A job's integration checks the source itself, against the job's base and under the landing lock; the
   * run's own look (its checkout as it was at prepare) would end a builder blocked for a change that only
   * the job can judge.
   */
  sourceCheckedByCaller?: boolean;
}

export async function approveRun(
  ctx: SpotContext,
  runId: string,
  reviewFile: string,
  message: string,
  options: ApproveOptions = {},
): Promise<ApproveResult> {
  if (!message.trim() || message.length > MAX_MESSAGE_CHARS || /[\r\n]/.test(message)) {
    throw new SpotError(
      "CLI_USAGE",
      `Cannot use commit message "${
        message.slice(0, 40)
      }": it must be one non-empty line of at most ${MAX_MESSAGE_CHARS} characters`,
    );
  }
  const lock = await ctx.store.lock(runId);
  try {
    let state = await ctx.store.load(runId);
    if ((state.status === "committed" || state.status === "integrated") && state.implementationCommit) {
      return { runId, status: state.status, implementationCommit: state.implementationCommit };
    }
    requireStatus(state, ["selfReviewing", "reviewing", "approved"], "approve");
    const review = await readReview(ctx.cwd, reviewFile);
    // A review file kept in the checkout is spot's input, not the user's uncommitted work.
    state = await recordInputFile(ctx, state, reviewFile);
    if (review.verdict !== "approve") {
      throw new SpotError(
        "REVIEW_INVALID",
        `Cannot approve with a review whose verdict is "${review.verdict}"`,
      );
    }
    const verification = await ctx.store.readJson<
      { passed: boolean; security: { passed: boolean }; diffSha256: string }
    >(runId, "verification.json");
    if (!verification?.passed || !verification.security.passed) {
      throw new SpotError(
        "REVIEW_GATE",
        `Cannot approve run "${runId}": spot's own verification did not pass`,
        {
          details: { hint: "write a revise verdict, or stop without integrating" },
        },
      );
    }
    const task = await loadTask(ctx.store, runId);
    const fresh = await scanRun(ctx, state, task);
    if (!fresh.sourceUnchanged && !options.sourceCheckedByCaller) {
      await blockSourceChanged(ctx, state, fresh.source);
    }
    if (fresh.locks.length > 0) {
      throw new SpotError("LOCKED_PATH_CHANGED", `Cannot approve run "${runId}": ${fresh.locks[0].message}`, {
        details: { locks: fresh.locks },
      });
    }
    if (fresh.delta.diffSha256 !== verification.diffSha256) {
      throw new SpotError(
        "DIFF_CHANGED",
        `Cannot approve run "${runId}": the worktree's diff changed since it was verified (now ${
          fresh.delta.diffSha256.slice(0, 12)
        }, verified ${verification.diffSha256.slice(0, 12)})`,
        {
          details: {
            reviewed: review.diffSha256,
            verified: verification.diffSha256,
            now: fresh.delta.diffSha256,
          },
        },
      );
    }
    requireReviewedHash(review, { command: "approve", runId, verified: verification.diffSha256 });
    const issues = fresh.scan.issues.filter((i) => i.code !== "SOURCE_CHANGED");
    if (issues.length) {
      await blockRun(
        ctx,
        state,
        "SECURITY_BLOCKED",
        `the re-scan at approve failed: ${issues[0]?.message}`,
        {
          issues,
        },
      );
    }
    await ctx.store.writeJson(runId, "review.json", review);
    if (state.status === "selfReviewing") {
      state = await moveRun(ctx, state, "reviewing", "parent skipped self-review");
    }
    if (state.status === "reviewing") {
      state = await moveRun(ctx, state, "approved", "parent approved", { diffSha256: review.diffSha256 });
    }
    const body = [
      message,
      "",
      `Pi-Worker-Run: ${runId}`,
      `Pi-Worker-Model: ${state.provider}/${state.model.split("/").pop()}`,
      "Pi-Worker-Verification: passed",
      `Pi-Worker-Diff-Sha256: ${review.diffSha256}`,
    ].join("\n");
    // Objects and branches live in the source's git dir; the worktree (and whatever git dir it names) is never asked.
    const cwd = state.sourceRoot;
    const commit = await gitText(
      ["commit-tree", fresh.delta.tree, "-p", state.workerBaseRevision, "-F", "-"],
      {
        cwd,
        identity: state.identity,
        stdinText: body + "\n",
      },
    );
    const current = await gitText(["rev-parse", `refs/heads/${state.workerBranch}`], { cwd });
    await git(["update-ref", `refs/heads/${state.workerBranch}`, commit, current], { cwd });
    state = await moveRun(ctx, state, "committed", "implementation committed", {
      implementationCommit: commit,
    });
    return { runId, status: state.status, implementationCommit: commit };
  } finally {
    lock.release();
  }
}
