/**
 * `self-review`: an optional, read-only worker turn that pre-digests the diff
 * for the parent. It never blocks the loop: any problem skips it.
 */
import { SelfReview } from "../schemas/self_review.ts";
import { extractJsonObject, selfReviewSignals } from "../review/spot_check.ts";
import { guideFromSelfReview, type ReviewTier } from "../review/tiers.ts";
import { runHunks, writeFullGuide, writeGuide } from "../gates/review_guide.ts";
import { summarizeChecks } from "../gates/checks.ts";
import type { SpotContext } from "../store/context.ts";
import { selfReviewPrompt } from "../worker/prompt.ts";
import { requireStatus } from "../lifecycle/state_table.ts";
import { loadTask } from "../store/task_file.ts";
import { runWorkerPhase, withTurn } from "../worker/phase.ts";
import { resolveAdapter } from "../worker/binary.ts";
import { requireBaselines } from "../gates/baselines.ts";
import { guardEscape } from "../gates/escape_check.ts";
import { guardReadOnlyTurn } from "../gates/read_only_turn.ts";
import { moveRun } from "../lifecycle/move.ts";

/** What `self-review` did: the worker's digest of its own diff, or why none. */
export interface SelfReviewResult {
  /** The run. */
  runId: string;
  /** The run's status afterwards (`prepared`, `running`, `reviewing`, `approved`, `integrated`, `blocked`, ...). */
  status: string;
  /** No digest was made (see `reason`). */
  skipped: boolean;
  /** Why it was skipped, or why the digest was discarded. */
  reason?: string;
  /** The digest named another diff and was discarded. */
  diffSha256Mismatch?: boolean;
  /** How many cited hunks the spot check draws for the parent to read (more when the citations are uneven). */
  spotCheckRequired?: number;
  /** The digest was weak: review the diff without it. */
  fallbackRecommended?: boolean;
  /** Where the digest was written. */
  selfReviewFile?: string;
  /** How much of the diff the parent must read: C (all of it), B (the doubted hunks and a spot check), A (a spot check of the self-review's map). */
  reviewTier?: ReviewTier;
  /** Why this tier. */
  reviewWhy?: string;
  /** Hunks the review guide asks the parent to read. */
  hunksToRead?: number;
  /** Hunks the guide covers, read or vouched for. */
  hunksCovered?: number;
  /** Where the review guide was written. */
  reviewGuideFile?: string;
}

interface StoredVerification {
  passed: boolean;
  diffSha256: string;
  security: { changedFiles: string[]; addedLines: number; deletedLines: number };
  commands: Parameters<typeof summarizeChecks>[0]["commands"];
}

export async function selfReviewRun(ctx: SpotContext, runId: string): Promise<SelfReviewResult> {
  const lock = await ctx.store.lock(runId);
  try {
    let state = await ctx.store.load(runId);
    requireStatus(state, ["selfReviewing"], "self-review");
    const task = await loadTask(ctx.store, runId);
    const verification = await ctx.store.readJson<StoredVerification>(runId, "verification.json");
    const settings = ctx.config.selfReview;
    const skip = async (reason: string): Promise<SelfReviewResult> => {
      state = await moveRun(ctx, state, "reviewing", `self-review skipped: ${reason}`, {
        selfReviewSkipped: true,
        selfReviewSkipReason: reason,
      });
      const guide = await writeFullGuide(ctx, runId, `self-review skipped (${reason}): read the whole diff`);
      return { runId, status: state.status, skipped: true, reason, ...guide };
    };
    if (!settings.enabled) return await skip("disabled");
    if (!verification?.passed) return await skip("verification-not-passed");
    const diffBytes = state.diffBytes ?? 0;
    if (diffBytes < settings.minDiffBytes) return await skip("diff-too-small");
    let surface = diffBytes;
    for (const file of verification.security.changedFiles) {
      surface += (await Deno.stat(`${state.worktreePath}/${file}`).catch(() => null))?.size ?? 0;
    }
    if (surface < settings.minSurfaceBytes) return await skip("review-surface-too-small");
    // Without an OS sandbox only the CLI can keep this turn from writing; where it cannot, there is no turn.
    if (state.sandbox !== "os" && (await resolveAdapter(state)).selfReviewReadOnly !== "cli") {
      return await skip("read-only-not-enforced");
    }
    await requireBaselines(ctx, state);
    const prompt = selfReviewPrompt(task, {
      diffSha256: verification.diffSha256,
      changedFiles: verification.security.changedFiles,
      diffStat:
        `${verification.security.changedFiles.length} files, +${verification.security.addedLines} -${verification.security.deletedLines}`,
      verificationSummary: summarizeChecks({ commands: verification.commands }),
    });
    const result = await runWorkerPhase(ctx, state, "self-review", prompt, task);
    state = withTurn(state, "self-review", result);
    // Every worker turn gets the escape check, and this one must also have left the worktree as verified.
    await guardEscape(ctx, state, "self-review");
    await guardReadOnlyTurn(ctx, state, verification.diffSha256);
    if (!result.outcome.ok) return await skip("worker-failed");
    const extracted = extractJsonObject(result.outcome.text ?? "");
    if (extracted === undefined) return await skip("parse-failed");
    const parsed = SelfReview.safeParse(extracted);
    if (!parsed.success) return await skip("validation-failed");
    const signals = selfReviewSignals(parsed.data, verification.diffSha256, settings);
    const selfReviewFile = await ctx.store.writeJson(runId, "self-review.json", {
      ...parsed.data,
      ...signals,
      generatedAt: ctx.now(),
    });
    state = await moveRun(ctx, state, "reviewing", "self-review written", {
      selfReviewSkipped: false,
      selfReviewSkipReason: null,
    });
    const guide = await writeGuide(
      ctx,
      runId,
      guideFromSelfReview(parsed.data, signals, await runHunks(ctx, runId), crypto.randomUUID()),
    );
    return { runId, status: state.status, skipped: false, ...signals, selfReviewFile, ...guide };
  } finally {
    lock.release();
  }
}
