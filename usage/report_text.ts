/**
 * The two human views of metrics.json: report.md (read in 20 seconds,
 * headline first) and the final response a parent gives its user
 * (`report --format parent`), in the order the seed asks for.
 */
import type { RunState } from "../schemas/run_state.ts";
import { credits, int, modelLabel, moneyLine, notLanded, pct, usageLine, usd } from "./format.ts";
import type { Metrics } from "./metrics.ts";

/** What the views need besides metrics: the run's own facts. */
export interface RunFacts {
  state:
    & Pick<
      RunState,
      | "runId"
      | "status"
      | "sandbox"
      | "workerBranch"
      | "sourceBranch"
      | "implementationCommit"
      | "integratedCommit"
    >
    & { failure: { code: string; message: string } | null; blockedReason: string | null };
  goal: string | null;
  changedFiles: string[] | null;
  checks: { argv: string[]; passed: boolean }[] | null;
}

const short = (sha: string | null) => sha ? sha.slice(0, 12) : "none";

function workerLine(m: Metrics): string {
  const w = m.worker;
  const cost = w.costUsd === null
    ? `cost unknown (${w.costNote})`
    : `cost ${usd(w.costUsd)} (${
      w.costSource === "pricing"
        ? "from the profile's pricing"
        : w.costSource === "none"
        ? "no usage reported"
        : `${w.costSource === "reported" ? "reported by the CLI" : "reported, rest from pricing"}`
    })`;
  const billed = w.credits === null ? "" : `, ${credits(w.credits)}`;
  return `${w.profile} (${modelLabel(w)}), ${w.attempts} attempt(s), ` +
    `${(w.durationMs / 1000).toFixed(1)}s: ${usageLine(w.usage)}; ${cost}${billed}`;
}

function parentLine(m: Metrics): string {
  const p = m.parent;
  if (!p.available || !p.usage) return `not measured (${p.reason})`;
  const compactions = p.compactionsDuringRun
    ? `; ${p.compactionsDuringRun} compaction(s) during the run`
    : "";
  return `${p.agent} thread ${p.threadId}: ${int(p.totalTokens ?? 0)} tokens (${usageLine(p.usage)}) ` +
    `from ${p.start?.takenAt} to ${p.end?.takenAt}${compactions}`;
}

function integration(m: Metrics, f: RunFacts): string {
  if (m.quality.integrated) {
    return `integrated as ${short(f.state.integratedCommit)} on ${
      f.state.sourceBranch ?? "the source branch"
    }`;
  }
  if (f.state.status === "succeeded") {
    return "succeeded with nothing to integrate (a read-only turn: its result is the worker's final message)";
  }
  if (f.state.status === "discarded") return "discarded, never integrated: its diff is kept in diff.patch";
  const why = f.state.blockedReason ?? f.state.failure?.message;
  return `not integrated (status ${f.state.status}${
    why ? `: ${why}` : ""
  }); the work stays on ${f.state.workerBranch}`;
}

export function renderReportMd(m: Metrics, f: RunFacts): string {
  const q = m.quality;
  const c = m.cohort;
  const lines = [
    `# spot run ${m.runId}: ${m.status}`,
    "",
    `**${m.headline}**`,
    "",
    moneyLine(m.parentSavings),
    "",
    `- Parent: ${parentLine(m)}`,
    `- Worker: ${workerLine(m)}`,
    `- Verification: ${q.finalVerificationPassed ? "passed" : "not passed"}; scan ${
      q.securityPassed ? "passed" : "not passed"
    }; verdict ${q.verdict ?? "none"}`,
    `- Revisions: ${q.revisionRounds}; unresolved P0-P2 findings: ${q.unresolvedBlockingFindings}; fallback: ${
      q.fallbackUsed ? "yes" : "no"
    }`,
    `- Commit: ${short(f.state.implementationCommit)} on ${f.state.workerBranch}; ${
      integration(m, f)
    }; pushed: no`,
    `- Sandbox: ${f.state.sandbox}`,
    `- Cohort: ${c.sampleSize} of ${c.window} measured runs; median saving ratio ${
      c.medianSavingRatio === null ? "n/a" : pct(c.medianSavingRatio)
    }; recommendation ${c.recommendation} (${c.reason})`,
  ];
  if (m.visual.chatgptImageGenerations) {
    lines.push(
      `- ChatGPT image generations for this task: ${m.visual.chatgptImageGenerations} (not metered)`,
    );
  }
  if (f.state.failure) lines.push(`- Stopped by: ${f.state.failure.code}: ${f.state.failure.message}`);
  lines.push(`- Basis: ${m.parentSavings.basis}`);
  return lines.join("\n") + "\n";
}

/** What the parent tells its user at the end: the seed's final-response list, in order. */
export function renderParentText(m: Metrics, f: RunFacts): string {
  const q = m.quality;
  const s = m.parentSavings;
  const files = f.changedFiles?.length ? ` (changed: ${f.changedFiles.join(", ")})` : "";
  const checks = f.checks?.length
    ? f.checks.map((c) => `\`${c.argv.join(" ")}\` ${c.passed ? "passed" : "failed"}`).join("; ")
    : "no checks recorded";
  const avoided = s.parentTokensSpent === null
    ? `parent spend not measured: ${s.parentUnavailableReason}`
    : `saving ratio ${s.savingRatio === null ? "n/a" : pct(s.savingRatio)} against ${
      int(s.parentTokensSpent)
    } parent tokens spent on delegation`;
  return [
    `Implementation: ${f.goal ?? "(task goal unavailable)"}${files}`,
    `Verification: ${q.finalVerificationPassed ? "passed" : "not passed"}, run by spot itself: ${checks}; ` +
    `scan ${q.securityPassed ? "passed" : "not passed"}`,
    `Parent verdict: ${q.verdict ?? "none"}`,
    `Revisions: ${q.revisionRounds}`,
    `Commit: ${short(f.state.implementationCommit)} on branch ${f.state.workerBranch}`,
    `Integration: ${integration(m, f)}`,
    `Main-model tokens avoided (estimate, not an A/B test): ${int(s.estimatedTokensAvoided)}${
      notLanded(s)
    }; ${avoided}. ` +
    `Basis: ${s.basis}`,
    moneyLine(s),
    `Worker usage: ${workerLine(m)}`,
    "Not pushed.",
  ].join("\n") + "\n";
}
