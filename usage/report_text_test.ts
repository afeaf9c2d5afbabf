import assert from "node:assert/strict";
import type { SpotEvent } from "../schemas/events.ts";
import type { RunState } from "../schemas/run_state.ts";
import { int, modelLabel, pct, usd } from "./format.ts";
import { buildMetrics, type MetricsInput } from "./metrics.ts";
import { measureParent } from "./parent/section.ts";
import { renderParentText, renderReportMd, type RunFacts } from "./report_text.ts";

const STATE = {
  runId: "fix-add",
  status: "integrated",
  createdAt: "2026-07-14T09:00:00.000Z",
  updatedAt: "2026-07-14T09:05:00.000Z",
  profile: "replay",
  adapter: "replay",
  provider: "replay",
  model: "/tmp/fix-add.jsonl",
  sandbox: "deno-permissions",
  revisionRound: 1,
  fallbackUsed: false,
  workerUsage: { input: 1800, output: 240, cacheRead: 600, cacheWrite: 0 },
  workerCostUsd: 0.0009,
  workerDurationMs: 2100,
  workerAttempts: 1,
  lastVerificationPassed: true,
  implementationCommit: "d1626082d846a6a7743f4eaef0d401684a60e44d",
  integratedCommit: "e2737193e957b7b8854f5fbf1e512795b71f55e5",
  workerBranch: "pi-worker/fix-add",
  sourceBranch: "main",
  failure: null,
  blockedReason: null,
} as unknown as RunState;

const EVENTS = [{
  type: "worker_usage",
  phase: "run",
  usage: STATE.workerUsage,
  costUsd: 0.0009,
  at: "t",
  runId: "fix-add",
}] as SpotEvent[];

const PARENT_SNAP = (usage: { input: number; cacheRead: number; output: number }, takenAt: string) => ({
  schemaVersion: 1 as const,
  kind: "spot-parent-usage" as const,
  agent: "codex" as const,
  available: true as const,
  takenAt,
  threadId: "019a3c5e-7b21-7d40-9a6e-3f0c2b8d41a7",
  threadIdSource: "CODEX_THREAD_ID",
  sessionFile: "/h/rollout.jsonl",
  files: ["/h/rollout.jsonl"],
  bytesRead: 1,
  linesRead: 1,
  skippedLines: 0,
  compactions: 0,
  usage: { ...usage, cacheWrite: 0, reasoning: 0 },
  totalTokens: usage.input + usage.cacheRead + usage.output,
});

function input(over: Partial<MetricsInput> = {}): MetricsInput {
  return {
    state: STATE,
    review: {
      schemaVersion: 1,
      verdict: "approve",
      diffSha256: "a".repeat(64),
      findings: [],
      verificationGaps: [],
      summary: "ok",
    },
    securityPassed: true,
    events: EVENTS,
    pricing: undefined,
    parent: measureParent(
      PARENT_SNAP({ input: 1000, cacheRead: 4000, output: 300 }, "2026-07-14T09:00:00.000Z"),
      PARENT_SNAP({ input: 3000, cacheRead: 12000, output: 860 }, "2026-07-14T09:06:00.000Z"),
    ),
    rateCard: {
      model: "gpt-test",
      effectiveDate: "2026-07-01",
      source: "test card",
      creditsPerMillion: { nonCachedInput: 125, cachedInput: 12.5, output: 750 },
    },
    subscription: null,
    chatgptImageGenerations: null,
    history: [],
    now: "2026-07-14T09:07:00.000Z",
    ...over,
  };
}
const FACTS: RunFacts = {
  state: STATE,
  goal: "Fix add() so that it returns the sum of its two arguments",
  changedFiles: ["add.ts"],
  checks: [{ argv: ["deno", "test", "add_test.ts"], passed: true }],
};

Deno.test("format helpers: grouped integers, one-decimal percentages, small dollar amounts kept", () => {
  assert.equal(int(88706), "88,706");
  assert.equal(pct(0.2), "20.0%");
  assert.equal(usd(0.0009), "$0.0009");
  assert.equal(usd(0), "$0.00");
  assert.equal(usd(0.5), "$0.50");
  assert.equal(usd(12.345), "$12.35");
});

Deno.test("report.md leads with the headline and renders the numbers in metrics.json", () => {
  const m = buildMetrics(input());
  assert.equal(m.parentSavings.parentTokensSpent, 10560);
  assert.equal(m.parentSavings.savingRatio, 0.2);
  const md = renderReportMd(m, FACTS);
  const lines = md.split("\n");
  assert.equal(lines[0], "# spot run fix-add: integrated");
  assert.equal(lines[2], `**${m.headline}**`);
  assert.match(
    m.headline,
    /^Parent tokens avoided \(estimate, not an A\/B test\): 2,640; saving ratio 20\.0% against 10,560/,
  );
  assert.ok(md.includes("0.4125 credits avoided vs 0.77 credits spent by the parent"), md);
  assert.ok(md.includes("rate card gpt-test, effective 2026-07-01, source test card"));
  assert.ok(md.includes("cost $0.0009 (reported by the CLI)"));
  assert.ok(md.includes("pushed: no"));
});

Deno.test("the parent's final response follows the seed's order and ends with not pushed", () => {
  const text = renderParentText(buildMetrics(input()), FACTS);
  const order = [
    "Implementation:",
    "Verification:",
    "Parent verdict:",
    "Revisions:",
    "Commit:",
    "Integration:",
    "Main-model tokens avoided",
    "In money",
    "Worker usage:",
    "Not pushed.",
  ];
  const lines = text.trimEnd().split("\n");
  assert.deepEqual(lines.map((l) => order.find((o) => l.startsWith(o))), order);
  assert.match(lines[0], /Fix add\(\).*\(changed: add\.ts\)/);
  assert.match(lines[1], /passed, run by spot itself: `deno test add_test\.ts` passed/);
  assert.match(lines[3], /Revisions: 1/);
  assert.match(lines[5], /integrated as e2737193e957 on main/);
  assert.match(lines[6], /2,640; saving ratio 20\.0% against 10,560 parent tokens/);
});

Deno.test("an unmeasured parent reads as not measured, with the reason, everywhere", () => {
  const m = buildMetrics(input({ parent: measureParent(null, null), rateCard: null }));
  assert.equal(m.parentSavings.savingRatio, null);
  assert.match(m.headline, /parent spend not measured: no start snapshot/);
  const md = renderReportMd(m, FACTS);
  assert.ok(md.includes("In money: not priced (no parentRateCard in the config)"));
  assert.ok(renderParentText(m, FACTS).includes("parent spend not measured: no start snapshot"));
  assert.equal(m.cohort.sampleSize, 0);
});

Deno.test("modelLabel() keeps a model named under its provider whole and names a replay episode in full", () => {
  assert.equal(
    modelLabel({ adapter: "opencode", provider: "opencode", model: "opencode/hy3-free" }),
    "opencode/hy3-free",
  );
  assert.equal(
    modelLabel({ adapter: "pi", provider: "openrouter", model: "deepseek/deepseek-v4" }),
    "openrouter/deepseek/deepseek-v4",
  );
  assert.equal(
    modelLabel({ adapter: "replay", provider: "replay", model: "/tmp/x/fix.jsonl" }),
    "replay:/tmp/x/fix.jsonl",
  );
});
