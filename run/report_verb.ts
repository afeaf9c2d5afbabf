/** `report`: metrics.json for machines and a report.md a human reads in 20 seconds. */
import { BLOCKING_PRIORITIES, type ReviewResult } from "../schemas/review_result.ts";
import type { RunState } from "../schemas/run_state.ts";
import { estimateSavings, type ParentSavings, totalTokens } from "../usage/savings.ts";
import type { SpotContext } from "./context.ts";

export interface ReportResult {
  runId: string;
  status: string;
  metricsFile: string;
  reportFile: string;
  parentSavings: ParentSavings;
}

function markdown(state: RunState, metrics: ReturnType<typeof buildMetrics>): string {
  const q = metrics.quality;
  const w = metrics.worker;
  return [
    `# spot run ${state.runId}: ${state.status}`,
    "",
    `**Parent tokens avoided (estimate): ${
      metrics.parentSavings.estimatedTokensAvoided.toLocaleString("en-US")
    }**` +
    ` (${metrics.parentSavings.basis})`,
    "",
    `- Worker: ${state.profile} (${state.provider}/${
      state.model.split("/").pop()
    }), ${w.attempts} attempt(s), ` +
    `${
      (w.durationMs / 1000).toFixed(1)
    }s, tokens in ${w.usage.input} (+${w.usage.cacheRead} cached) out ${w.usage.output}, ` +
    `cost $${w.costUsd.toFixed(4)}`,
    `- Verification: ${q.finalVerificationPassed ? "passed" : "not passed"}; scan ${
      q.securityPassed ? "passed" : "not passed"
    }`,
    `- Revisions: ${q.revisionRounds}; unresolved P0-P2 findings: ${q.unresolvedBlockingFindings}`,
    `- Commit: ${state.implementationCommit ?? "none"}; integrated: ${
      state.integratedCommit ?? "no"
    }; pushed: no`,
    `- Sandbox: ${state.sandbox}`,
    state.failure ? `- Stopped by: ${state.failure.code}: ${state.failure.message}` : "",
    "",
  ].filter((l) => l !== "").join("\n") + "\n";
}

function buildMetrics(state: RunState, review: ReviewResult | null, security: boolean | null, at: string) {
  return {
    schemaVersion: 1,
    runId: state.runId,
    generatedAt: at,
    elapsedMs: Date.parse(state.updatedAt) - Date.parse(state.createdAt),
    quality: {
      finalVerificationPassed: state.lastVerificationPassed === true,
      securityPassed: security === true,
      unresolvedBlockingFindings:
        review?.findings.filter((f) => BLOCKING_PRIORITIES.has(f.priority)).length ?? 0,
      revisionRounds: state.revisionRound,
      fallbackUsed: state.fallbackUsed,
      committed: state.implementationCommit !== null,
      integrated: state.status === "integrated",
    },
    worker: {
      profile: state.profile,
      provider: state.provider,
      model: state.model,
      usage: state.workerUsage,
      totalTokens: totalTokens(state.workerUsage),
      costUsd: state.workerCostUsd,
      durationMs: state.workerDurationMs,
      attempts: state.workerAttempts,
    },
    parentSavings: estimateSavings(state.workerUsage, null),
  };
}

export async function reportRun(ctx: SpotContext, runId: string): Promise<ReportResult> {
  const lock = await ctx.store.lock(runId);
  try {
    const state = await ctx.store.load(runId);
    const review = await ctx.store.readJson<ReviewResult>(runId, "review.json");
    const verification = await ctx.store.readJson<{ security?: { passed: boolean } }>(
      runId,
      "verification.json",
    );
    const metrics = buildMetrics(state, review, verification?.security?.passed ?? null, ctx.now());
    const metricsFile = await ctx.store.writeJson(runId, "metrics.json", metrics);
    const reportFile = await ctx.store.writeText(runId, "report.md", markdown(state, metrics));
    await ctx.store.save({ ...state, lastReportAt: ctx.now() });
    return { runId, status: state.status, metricsFile, reportFile, parentSavings: metrics.parentSavings };
  } finally {
    lock.release();
  }
}
