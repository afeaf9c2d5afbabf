/**
 * `verify`: spot's own judgement of the worker's delta. The scan runs first;
 * the contract's checks run only on a delta that passed it.
 */
import { SpotError } from "../errors.ts";
import { type ChecksResult, runChecks } from "./checks.ts";
import type { SpotContext } from "./context.ts";
import { findNestedGit } from "../verify/nested_git.ts";
import { withPristineTree } from "./pristine.ts";
import { writeFullGuide } from "./review_guide.ts";
import { scanRun } from "./scan_run.ts";
import { requireStatus } from "./state_table.ts";
import { loadTask } from "./task_file.ts";

export interface VerifyResult {
  runId: string;
  status: string;
  passed: boolean;
  diffSha256: string;
  securityPassed: boolean;
  verificationFile: string;
  reviewTier?: "A" | "C";
  hunksToRead?: number;
  reviewGuideFile?: string;
}

export async function verifyRun(ctx: SpotContext, runId: string): Promise<VerifyResult> {
  const lock = await ctx.store.lock(runId);
  try {
    let state = await ctx.store.load(runId);
    requireStatus(state, ["verifying"], "verify");
    const task = await loadTask(ctx.store, runId);
    ctx.progress?.(`verify ${runId}: scanning the diff`);
    // Git skips nested .git directories when it builds a tree, so look for them on disk first.
    const nested = await findNestedGit(state.worktreePath);
    if (nested.found.length > 0 || nested.truncated) {
      const issues = nested.found.map((file) => ({
        code: "NESTED_GIT",
        file,
        message: `A nested git directory "${file}" was planted in the worktree`,
      }));
      if (nested.truncated) {
        issues.push({
          code: "NESTED_GIT",
          file: ".",
          message: "The worktree has too many files to check for nested git directories",
        });
      }
      await ctx.store.writeJson(runId, "verification.json", {
        schemaVersion: 1,
        runId,
        passed: false,
        security: { passed: false, issues },
        commands: [],
        at: ctx.now(),
      });
      await ctx.store.move(state, "blocked", "nested git directory", {
        failure: { code: "SECURITY_BLOCKED", message: issues[0].message, details: { issues } },
        blockedReason: "SECURITY_BLOCKED",
      });
      throw new SpotError("SECURITY_BLOCKED", `Run "${runId}" is blocked: ${issues[0].message}`, {
        details: { runId, issues },
      });
    }
    const { scan, delta, locks } = await scanRun(ctx, state, task);
    let checks: ChecksResult = { passed: false, outputTruncated: false, interrupted: false, commands: [] };
    if (scan.passed && locks.length === 0) {
      checks = await withPristineTree(ctx, state, delta.tree, (dir) => runChecks(ctx, runId, task, dir));
    }
    const passed = scan.passed && locks.length === 0 && checks.passed;
    const verification = {
      schemaVersion: 1,
      runId,
      passed,
      diffSha256: delta.diffSha256,
      security: scan,
      locks,
      commands: checks.commands,
      outputTruncated: checks.outputTruncated,
      interrupted: checks.interrupted,
      revisionRound: state.revisionRound,
      at: ctx.now(),
    };
    const verificationFile = await ctx.store.writeJson(runId, "verification.json", verification);
    await ctx.store.writeText(runId, "diff.patch", delta.diff);
    await ctx.store.event(runId, { type: "verify_result", passed, diffSha256: delta.diffSha256 });
    state = {
      ...state,
      lastVerificationPassed: passed,
      diffSha256: delta.diffSha256,
      diffBytes: delta.diffBytes,
    };
    if (locks.length > 0) {
      // The worker edited what grades it: terminal, whatever the tests would say.
      const code = locks.some((l) => l.code === "VERIFICATION_SCRIPT_CHANGED")
        ? "VERIFICATION_SCRIPT_CHANGED"
        : "LOCKED_PATH_CHANGED";
      await ctx.store.move(state, "blocked", `${code}: ${locks[0].message}`, {
        failure: { code, message: locks[0].message, details: { locks } },
        blockedReason: code,
      });
      throw new SpotError(code, `Run "${runId}" is blocked: ${locks.map((l) => l.message).join("; ")}`, {
        details: { runId, locks, verificationFile },
      });
    }
    if (!scan.passed) {
      const first = scan.issues[0];
      await ctx.store.move(state, "blocked", "security scan failed", {
        failure: {
          code: "SECURITY_BLOCKED",
          message: first?.message ?? "scan failed",
          details: { issues: scan.issues },
        },
        blockedReason: "SECURITY_BLOCKED",
      });
      throw new SpotError(
        "SECURITY_BLOCKED",
        `Run "${runId}" is blocked: ${scan.issues.length} scan finding(s), first: ${first?.message}`,
        {
          details: { runId, issues: scan.issues, verificationFile },
        },
      );
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
      await ctx.store.move(state, "blocked", "verification output truncated", {
        failure: {
          code: "VERIFICATION_OUTPUT_TRUNCATED",
          message: "A check printed more than the capture limit",
        },
        blockedReason: "VERIFICATION_OUTPUT_TRUNCATED",
      });
      throw new SpotError(
        "VERIFICATION_OUTPUT_TRUNCATED",
        `Run "${runId}" is blocked: a check's output was truncated, so its result cannot be trusted`,
        {
          details: { runId, limit: ctx.config.limits.maxCapturedCharsPerStream, verificationFile },
        },
      );
    }
    const next = passed && ctx.config.selfReview.enabled ? "selfReviewing" : "reviewing";
    // Self-review is skipped here when it cannot help; the reason is recorded like any other skip.
    const skipReason = next === "selfReviewing" ? null : passed ? "disabled" : "verification-not-passed";
    state = await ctx.store.move(state, next, passed ? "verification passed" : "verification failed", {
      selfReviewSkipped: skipReason !== null ? true : null,
      selfReviewSkipReason: skipReason,
    });
    const guide = next === "reviewing"
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
