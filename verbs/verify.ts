/**
 * `verify`: spot's own judgement of the worker's delta. Nested repositories,
 * locked paths and the scope/secret scan are checked first; the contract's
 * checks run only on a delta that passed them, in a pristine tree.
 */
import { SpotError } from "../errors.ts";
import type { ReviewTier } from "../review/tiers.ts";
import { withStepEnforcement } from "../isolation/enforcement.ts";
import { blockRun, failRun, revisionLimitMessage } from "../lifecycle/block.ts";
import { blockSourceChanged } from "../lifecycle/source_changed.ts";
import { refuseNestedGit } from "../gates/nested_git.ts";
import { type ChecksResult, runChecks, startChecksStep } from "../gates/checks.ts";
import type { SpotContext } from "../store/context.ts";
import { checkOutPristine, pristineDir, type PristineTree } from "../gates/pristine.ts";
import { checksDigest } from "../gates/landed_as_verified.ts";
import { writeFullGuide } from "../gates/review_guide.ts";
import { scanRun } from "../gates/scan_run.ts";
import { requireStatus } from "../lifecycle/state_table.ts";
import { loadTask } from "../store/task_file.ts";
import { moveRun } from "../lifecycle/move.ts";

/** What `verify` found: the scans and the checks, and what the parent must read. */
export interface VerifyResult {
  /** The run. */
  runId: string;
  /** The run's status afterwards (`prepared`, `running`, `reviewing`, `approved`, `integrated`, `blocked`, ...). */
  status: string;
  /** Every scan and every check passed. */
  passed: boolean;
  /** The verified diff's sha256; a review must name it to approve. */
  diffSha256: string;
  /** The scope, lock, secret and escape scans passed. */
  securityPassed: boolean;
  /** Where verification.json (every check's output) was written. */
  verificationFile: string;
  /** How much of the diff the parent must read: C (all of it), B (the doubted hunks and a spot check), A (a spot check of the self-review's map). */
  reviewTier?: ReviewTier;
  /** Hunks the review guide asks the parent to read. */
  hunksToRead?: number;
  /** Hunks the guide covers, read or vouched for. */
  hunksCovered?: number;
  /** Where the review guide was written. */
  reviewGuideFile?: string;
}

const NO_CHECKS: ChecksResult = {
  passed: false,
  enforcement: null,
  outputTruncated: false,
  interrupted: false,
  commands: [],
};

export async function verifyRun(ctx: SpotContext, runId: string): Promise<VerifyResult> {
  const lock = await ctx.store.lock(runId);
  try {
    let state = await ctx.store.load(runId);
    requireStatus(state, ["verifying"], "verify");
    const task = await loadTask(ctx.store, runId);
    ctx.progress?.(`verify ${runId}: scanning the diff`);
    // The checks' step starts now, in the tree about to be built: its Deno starts while the scans run.
    const pristine = pristineDir(ctx, state);
    const step = await startChecksStep(ctx, state, task, pristine);
    let scanned: Awaited<ReturnType<typeof scanRun>>;
    let checks: ChecksResult = NO_CHECKS;
    // git checks the tree out while the scan goes on; the checks run in it only if the delta passes.
    let checkout: Promise<PristineTree> | null = null;
    try {
      await refuseNestedGit(ctx, state);
      scanned = await scanRun(ctx, state, task, {
        onTree: (tree) => {
          checkout = checkOutPristine(ctx, state, tree, pristine);
          checkout.catch(() => {}); // its error counts only where the checks need the tree, below
        },
      });
      if (scanned.scan.passed && scanned.locks.length === 0) {
        ctx.progress?.(`verify ${runId}: building a pristine tree for the checks`);
        const tree = await checkout!;
        await tree.furnish();
        checks = await runChecks(ctx, runId, task, tree.dir, step);
      }
    } finally {
      await step?.cancel();
      await (await (checkout as Promise<PristineTree> | null)?.catch(() => null))?.drop();
    }
    const { scan, delta, locks, source } = scanned;
    const gatesPassed = scan.passed && locks.length === 0;
    const passed = gatesPassed && checks.passed;
    const verificationFile = await ctx.store.writeJson(runId, "verification.json", {
      schemaVersion: 1,
      runId,
      passed,
      diffSha256: delta.diffSha256,
      // The tree the diff is of: a job commits exactly it as a builder's verified work (graphs/launch/verified.ts).
      tree: delta.tree,
      // What the checks ran with: integrate takes this result as the landed tree's when both are unchanged.
      checksDigest: await checksDigest(ctx, task),
      security: scan,
      locks,
      // `code` is the original pi-worker's name for a check's exit code: kept beside spot's `exitCode`.
      commands: checks.commands.map((c) => ({ ...c, code: c.exitCode })),
      outputTruncated: checks.outputTruncated,
      interrupted: checks.interrupted,
      revisionRound: state.revisionRound,
      at: ctx.now(),
    });
    await ctx.store.writeText(runId, "diff.patch", delta.diff);
    await ctx.store.event(runId, { type: "verify_result", passed, diffSha256: delta.diffSha256 });
    state = {
      ...state,
      lastVerificationPassed: passed,
      diffSha256: delta.diffSha256,
      diffBytes: delta.diffBytes,
      sandboxDetails: withStepEnforcement(state.sandboxDetails, "check", checks.enforcement),
    };
    if (locks.length > 0) {
      // The worker edited what grades it: terminal, whatever the tests would say.
      const code = locks.some((l) => l.code === "VERIFICATION_SCRIPT_CHANGED")
        ? "VERIFICATION_SCRIPT_CHANGED"
        : "LOCKED_PATH_CHANGED";
      await blockRun(ctx, state, code, locks.map((l) => l.message).join("; "), { locks, verificationFile });
    }
    if (!scan.passed && scan.issues.every((i) => i.code === "NO_CHANGES")) {
      // Nothing to review, approve or land: the run ends here, in words that say so (not a security finding).
      await failRun(ctx, state, "NO_CHANGES", "the worker changed nothing (the diff is empty)", {
        issues: scan.issues,
        verificationFile,
        hint: "if the task is already done there is nothing to land; otherwise prepare it again with a " +
          "clearer goal or another profile",
      });
    }
    if (!scan.passed) {
      // The user's checkout moving is not the worker's doing: its own code, when it is the only finding.
      if (scan.issues.every((i) => i.code === "SOURCE_CHANGED")) {
        await blockSourceChanged(ctx, state, source, { verificationFile });
      }
      const detail = `${scan.issues.length} scan finding(s), first: ${scan.issues[0]?.message}`;
      await blockRun(ctx, state, "SECURITY_BLOCKED", detail, { issues: scan.issues, verificationFile });
    }
    if (checks.interrupted && ctx.signal?.aborted) {
      await ctx.store.save({
        ...state,
        interruption: { at: ctx.now(), signal: "SIGINT", phase: "verifying" },
      });
      throw new SpotError("VERIFICATION_INTERRUPTED", `Verification of run "${runId}" was interrupted`, {
        details: { runId, nextCommand: `spot verify --id ${runId}` },
      });
    }
    if (checks.outputTruncated) {
      const limit = ctx.config.limits.maxCapturedCharsPerStream;
      await blockRun(
        ctx,
        state,
        "VERIFICATION_OUTPUT_TRUNCATED",
        `a check printed more than ${limit} characters, so its result cannot be trusted`,
        { limit, verificationFile },
      );
    }
    const max = ctx.config.maxRevisionRounds;
    if (!passed && state.revisionRound >= max) {
      // Failed checks cannot be approved, and no revision is left to fix them: the run ends here.
      await failRun(
        ctx,
        state,
        "REVISION_LIMIT",
        `the checks failed and ${revisionLimitMessage(state, max)}`,
        {
          passed,
          diffSha256: delta.diffSha256,
          verificationFile,
          revisionRound: state.revisionRound,
          maxRevisionRounds: max,
          hint:
            `the work stays on branch ${state.workerBranch}: finish it in the parent, or prepare the task again`,
        },
      );
    }
    const next = passed && ctx.config.selfReview.enabled ? "selfReviewing" : "reviewing";
    // Self-review is skipped here when it cannot help; the reason is recorded like any other skip.
    const skipReason = next === "selfReviewing" ? null : passed ? "disabled" : "verification-not-passed";
    state = await moveRun(ctx, state, next, passed ? "verification passed" : "verification failed", {
      selfReviewSkipped: skipReason !== null ? true : null,
      selfReviewSkipReason: skipReason,
    });
    const guide = skipReason
      ? await writeFullGuide(ctx, runId, `self-review skipped (${skipReason}): read the whole diff`)
      : {};
    return {
      runId,
      status: state.status,
      passed,
      diffSha256: delta.diffSha256,
      securityPassed: scan.passed,
      verificationFile,
      ...guide,
    };
  } finally {
    lock.release();
  }
}
