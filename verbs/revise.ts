/** `revise`: send the parent's findings back to the worker, at most maxRevisionRounds times. */
import { SpotError } from "../errors.ts";
import type { ChecksResult } from "../gates/checks.ts";
import { summarizeChecks } from "../gates/checks.ts";
import type { SpotContext } from "../store/context.ts";
import { failTurn } from "../lifecycle/outcome.ts";
import { failRun, revisionLimitMessage } from "../lifecycle/block.ts";
import { requireBaselines } from "../gates/baselines.ts";
import { guardEscape } from "../gates/escape_check.ts";
import { revisionPrompt } from "../worker/prompt.ts";
import { readReview, requireReviewedHash } from "../config/review_load.ts";
import { requireStatus } from "../lifecycle/state_table.ts";
import { loadTask } from "../store/task_file.ts";
import { runWorkerPhase, withTurn } from "../worker/phase.ts";
import { computeDelta } from "../git/delta.ts";
import { moveRun } from "../lifecycle/move.ts";
import { recordInputFile } from "../gates/input_files.ts";
import { withSlotFor } from "../lifecycle/admit.ts";
import { worktreeOf } from "../lifecycle/worktree.ts";
import type { RunState } from "../schemas/run_state.ts";

/** What `revise` did: the findings went back to the worker for another turn. */
export interface ReviseResult {
  /** The run. */
  runId: string;
  /** The run's status afterwards (`prepared`, `running`, `reviewing`, `approved`, `integrated`, `blocked`, ...). */
  status: string;
  /** Which round this was (the config's `maxRevisionRounds` bounds it). */
  revisionRound: number;
  /** The turn resumed a revision an interruption had cut short. */
  recovered?: boolean;
}

/**
 * A revision turn that ended well but left the diff exactly as reviewed: the round is spent, and the parent
 * hears it rather than verifying the same diff again. Checks that passed still hold: the run goes back to
 * review, where it can be approved as it is. Checks that failed still fail: with a round left the run goes
 * back to review for another revision; with none left nothing more can come of it, and it ends
 * REVISION_LIMIT as a failed last round does at verify.
 */
async function noChange(
  ctx: SpotContext,
  state: RunState,
  round: number,
  checksPassed: boolean,
): Promise<never> {
  const { runId } = state;
  const left = ctx.config.maxRevisionRounds - round;
  const said = `revision round ${round} changed nothing (the diff is exactly as reviewed, ${
    state.diffSha256?.slice(0, 12)
  })`;
  if (!checksPassed && left <= 0) {
    await failRun(
      ctx,
      { ...state, revisionRound: round },
      "REVISION_LIMIT",
      `the checks failed and ${said}`,
      {
        revisionRound: round,
        maxRevisionRounds: ctx.config.maxRevisionRounds,
        hint:
          `the work stays on branch ${state.workerBranch}: finish it in the parent, or prepare the task again`,
      },
    );
  }
  await moveRun(ctx, state, "reviewing", `revision round ${round} changed nothing`);
  const next = left > 0 ? `revise again with findings the worker can act on (${left} round(s) left), ` : "";
  throw new SpotError(
    "REVISION_NO_CHANGE",
    `Revision round ${round} of run "${runId}" changed nothing: the worker ended its turn with the diff ` +
      `exactly as reviewed (${state.diffSha256?.slice(0, 12)})`,
    {
      details: {
        runId,
        revisionRound: round,
        roundsLeft: left,
        diffSha256: state.diffSha256,
        checksPassed,
        hint: `the run is back at review with the same verified diff: ${next}${
          checksPassed ? "approve it as it is, or discard it" : "or discard it (its checks fail)"
        }`,
        nextCommand: left > 0
          ? `spot revise --id ${runId} --review REVIEW.json`
          : `spot discard --id ${runId}`,
      },
    },
  );
}

export async function reviseRun(ctx: SpotContext, runId: string, reviewFile: string): Promise<ReviseResult> {
  const lock = await ctx.store.lock(runId);
  try {
    let state = await ctx.store.load(runId);
    requireStatus(state, ["selfReviewing", "reviewing"], "revise");
    const review = await readReview(ctx.cwd, reviewFile);
    // A review file kept in the checkout is spot's input, not the user's uncommitted work.
    state = await recordInputFile(ctx, state, reviewFile);
    if (review.verdict !== "revise") {
      throw new SpotError(
        "REVIEW_INVALID",
        `Cannot revise with a review whose verdict is "${review.verdict}"`,
      );
    }
    requireReviewedHash(review, { command: "revise", runId, verified: state.diffSha256 ?? "" });
    if (state.revisionRound >= ctx.config.maxRevisionRounds) {
      // No round is left and the parent's own verdict says the work is not acceptable as it is: nothing
      // more can come of this run, so it ends (freeing its slot) instead of waiting in reviewing.
      await failRun(ctx, state, "REVISION_LIMIT", revisionLimitMessage(state, ctx.config.maxRevisionRounds), {
        revisionRound: state.revisionRound,
        maxRevisionRounds: ctx.config.maxRevisionRounds,
        hint:
          `the work stays on branch ${state.workerBranch}: finish it in the parent, or prepare the task again`,
      });
    }
    // A run still at self-review holds its slot into the revision turn; one at review takes one again.
    const original = state;
    if (state.status === "selfReviewing") {
      state = await moveRun(ctx, state, "reviewing", "parent skipped self-review");
    }
    const round = state.revisionRound + 1;
    await ctx.store.writeJson(runId, `review-round-${round}.json`, review);
    const task = await loadTask(ctx.store, runId);
    const verification = await ctx.store.readJson<ChecksResult>(runId, "verification.json");
    await requireBaselines(ctx, state);
    const reviewed = state;
    state = await withSlotFor(
      ctx,
      original,
      "revising",
      () => moveRun(ctx, reviewed, "revising", `revision round ${round}`, { revisionRound: round }),
    );
    const result = await runWorkerPhase(
      ctx,
      state,
      "revise",
      revisionPrompt(task, review, verification ? summarizeChecks(verification) : "unknown"),
      task,
    );
    state = withTurn(state, "revise", result);
    await guardEscape(ctx, state, "revise");
    if (!result.outcome.ok) {
      const delta = await computeDelta(
        await worktreeOf(state),
        state.workerBaseRevision,
        ctx.store.dir(runId),
      );
      if (delta.diffSha256 === state.diffSha256 || result.outcome.failure?.code === "cancelled") {
        await failTurn(ctx, state, "revise", result.outcome);
      }
      state = await moveRun(ctx, state, "verifying", "revise turn failed but changed the worktree");
      return { runId, status: state.status, revisionRound: round, recovered: true };
    }
    const after = await computeDelta(await worktreeOf(state), state.workerBaseRevision, ctx.store.dir(runId));
    if (after.diffSha256 === state.diffSha256) {
      await noChange(ctx, state, round, verification?.passed === true);
    }
    state = await moveRun(ctx, state, "verifying", "revision finished");
    return { runId, status: state.status, revisionRound: round };
  } finally {
    lock.release();
  }
}
