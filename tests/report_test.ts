/**
 * The savings report through the real CLI: a replay run whose parent is a
 * Codex or Claude Code session that keeps growing while the run goes on.
 * The expected figures come from tests/fixtures/parent/expected.json (summed
 * by the fixture generator, not by the meter) and the episode's usage op.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { chunk, EXPECTED, fixtureLines, liveSession } from "./fixtures/parent/fixture.ts";
import { demoScenario, FIXED_ADD } from "./scenario.ts";
import { spot, type SpotEnv, spotEnv, writeJson } from "./helpers.ts";

/** The episode's usage op: what the worker spent on the implementation turn. */
const WORKER = { input: 1800, output: 240, cacheRead: 600, cacheWrite: 0 };
const PRICING = {
  inputPerMillion: 0.27,
  outputPerMillion: 1.1,
  cacheReadPerMillion: 0.07,
  cacheWritePerMillion: 0.3,
};
const CARD = {
  model: "gpt-test-codex",
  effectiveDate: "2026-07-01",
  source: "https://example.invalid/codex-rate-card",
  creditsPerMillion: { nonCachedInput: 125, cachedInput: 12.5, output: 750 },
};
const PLAN = { plan: "plus", monthlyUsd: 20, weeklyAllowanceCredits: 140 };
const EPISODE = [
  { op: "say", text: "Reading add.ts; the operator is wrong." },
  { op: "write", path: "add.ts", content: FIXED_ADD },
  // Tokens only, as many CLIs report them: the cost must come from the profile's pricing.
  { op: "usage", ...WORKER, costUsd: 0 },
  { op: "say", text: "Changed the subtraction to an addition in add()." },
];

async function approveFile(dir: string, diffSha256: string): Promise<string> {
  const file = join(dir, "review.json");
  await writeJson(file, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "spot's checks pass; the diff touches add.ts only",
  });
  return file;
}

async function ok(env: SpotEnv, cwd: string, ...args: string[]) {
  const r = await spot(env, cwd, ...args);
  assert.equal(r.code, 0, `spot ${args.join(" ")}: ${r.stderr}`);
  return r;
}

async function cleanup(env: SpotEnv): Promise<void> {
  await Deno.remove(env.dir, { recursive: true }).catch(() => {});
}

Deno.test("a replay run under a growing Codex rollout reports exactly the expected parentSavings", async () => {
  const env = await spotEnv({
    parentRateCard: CARD,
    codexSubscription: PLAN,
    profiles: { "replay-priced": { adapter: "replay", provider: "replay", model: "", pricing: PRICING } },
  });
  try {
    const home = join(env.dir, "codex-home");
    Object.assign(env.env, {
      PARENT_AGENT: "codex",
      CODEX_HOME: home,
      CODEX_THREAD_ID: EXPECTED.codex.threadId,
    });
    const lines = await fixtureLines("codex");
    const split = EXPECTED.codex.splitLine;
    const live = await liveSession("codex", home, chunk(lines, 0, split));
    const sc = await demoScenario(env.dir, EPISODE);

    const meter = await ok(env, sc.repo, "parent-meter", "--output", join(env.dir, "start.json"));
    assert.equal(meter.json.available, true);
    assert.equal(meter.json.totalTokens, EXPECTED.codex.start.totalTokens);
    const prep = await ok(
      env,
      sc.repo,
      ...["prepare", "--task", sc.taskFile, "--profile", "replay-priced", "--model", sc.episodeFile],
      ...["--usage-start", join(env.dir, "start.json")],
    );
    const id = String(prep.json.runId);
    await Deno.remove(join(env.dir, "start.json")); // prepare kept its own copy
    const third = split + Math.floor((lines.length - split) / 3);
    await live.append(chunk(lines, split, third));
    await ok(env, sc.repo, "run", "--id", id);
    const verify = await ok(env, sc.repo, "verify", "--id", id);
    if (verify.json.status === "selfReviewing") await ok(env, sc.repo, "self-review", "--id", id);
    const review = await approveFile(env.dir, String(verify.json.diffSha256));
    await ok(env, sc.repo, "approve", "--id", id, "--review", review, "--message", "Fix add()");
    // The parent is mid-write when integrate runs: a torn line, then the rest of the session.
    await live.append(chunk(lines, third, third + 5) + lines[third + 5].slice(0, 30));
    await ok(env, sc.repo, "integrate", "--id", id);
    await live.append(lines[third + 5].slice(30) + "\n" + chunk(lines, third + 6));
    const report = await ok(env, sc.repo, "report", "--id", id);

    const s = EXPECTED.codex.start;
    const e = EXPECTED.codex.end;
    const spent = {
      input: e.input - s.input,
      cacheRead: e.cacheRead - s.cacheRead,
      output: e.output - s.output,
    };
    const avoided = WORKER.input + WORKER.cacheRead + WORKER.cacheWrite + WORKER.output;
    const parentTokens = e.totalTokens - s.totalTokens;
    const creditsAvoided = (WORKER.input * 125 + WORKER.cacheRead * 12.5 + WORKER.cacheWrite * 125 +
      WORKER.output * 750) / 1e6;
    const creditsSpent = (spent.input * 125 + spent.cacheRead * 12.5 + 0 * 125 + spent.output * 750) / 1e6;
    const usdPerCredit = 20 / (140 * (52 / 12));
    const metrics = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "metrics.json")));
    const ps = metrics.parentSavings;
    assert.equal(ps.label, "estimate-not-ab-test");
    assert.equal(ps.estimatedTokensAvoided, 2640);
    assert.equal(ps.estimatedTokensAvoided, avoided);
    assert.equal(ps.parentTokensSpent, 88706);
    assert.equal(ps.parentTokensSpent, parentTokens);
    assert.equal(ps.savingRatio, 2640 / (2640 + 88706));
    assert.equal(ps.parentMeasured, true);
    assert.equal(ps.parentUnavailableReason, null);
    assert.match(ps.basis, /^counterfactual: /);
    assert.deepEqual(ps.money.rateCard, {
      model: CARD.model,
      effectiveDate: "2026-07-01",
      source: CARD.source,
    });
    assert.deepEqual(ps.money.credits, {
      avoided: creditsAvoided,
      parentSpent: creditsSpent,
      noDelegation: creditsAvoided + creditsSpent,
      savingRatio: creditsAvoided / (creditsAvoided + creditsSpent),
    });
    assert.equal(ps.money.usd.avoided, creditsAvoided * usdPerCredit);
    assert.equal(ps.money.usd.parentSpent, creditsSpent * usdPerCredit);
    assert.equal(ps.moneyUnavailableReason, null);
    assert.deepEqual(metrics.parent.usage, { ...spent, cacheWrite: 0, reasoning: e.reasoning - s.reasoning });
    assert.equal(metrics.parent.compactionsDuringRun, 1);
    assert.equal(metrics.worker.costSource, "pricing");
    assert.equal(metrics.worker.costUsd, (1800 * 0.27 + 240 * 1.1 + 600 * 0.07 + 0 * 0.3) / 1e6);
    assert.equal(metrics.quality.integrated, true);

    // The JSON on stdout leads with the headline; report.md renders the same numbers under its title.
    assert.ok(report.stdout.startsWith(`{"ok":true,"command":"report","headline":`), report.stdout);
    assert.equal(report.json.headline, metrics.headline);
    assert.deepEqual(report.json.parentSavings, ps);
    const md = await Deno.readTextFile(String(report.json.reportFile));
    assert.equal(md.split("\n")[2], `**${metrics.headline}**`);
    assert.match(metrics.headline, /: 2,640; saving ratio 2\.9% against 88,706 parent tokens/);
    const credits = (n: number) => `${Number(n.toFixed(4))} credits`;
    assert.ok(md.includes(`${credits(creditsAvoided)} avoided vs ${credits(creditsSpent)} spent`), md);
    assert.ok(md.includes("effective 2026-07-01"));

    const text = await spot(env, sc.repo, "report", "--id", id, "--format", "parent");
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Implementation: Fix add\(\)/);
    assert.ok(
      text.stdout.includes("Main-model tokens avoided (estimate, not an A/B test): 2,640; saving ratio 2.9%"),
    );
    assert.ok(text.stdout.endsWith("Not pushed.\n"));
  } finally {
    await cleanup(env);
  }
});

Deno.test("a Claude Code parent is metered from its session without a rate card; money says why not", async () => {
  const env = await spotEnv();
  try {
    const home = join(env.dir, "claude-home");
    Object.assign(env.env, {
      PARENT_AGENT: "claude-code",
      CLAUDE_CONFIG_DIR: home,
      PARENT_THREAD_ID: EXPECTED.claude.threadId,
    });
    const lines = await fixtureLines("claude");
    const live = await liveSession("claude", home, chunk(lines, 0, EXPECTED.claude.splitLine));
    const sc = await demoScenario(env.dir);
    // Outside the repository: a snapshot left in the checkout would block integration (uncommitted work).
    const start = join(env.dir, "start.json");
    await ok(env, sc.repo, "parent-meter", "--output", start);
    const prep = await ok(
      env,
      sc.repo,
      ...["prepare", "--task", sc.taskFile, "--profile", "replay", "--model", sc.episodeFile],
      ...["--usage-start", start],
    );
    const id = String(prep.json.runId);
    await ok(env, sc.repo, "run", "--id", id);
    // Only landed work avoids parent tokens: take the run to integration.
    const verify = await ok(env, sc.repo, "verify", "--id", id);
    if (verify.json.status === "selfReviewing") await ok(env, sc.repo, "self-review", "--id", id);
    const review = await approveFile(env.dir, String(verify.json.diffSha256));
    await ok(env, sc.repo, "approve", "--id", id, "--review", review, "--message", "Fix add()");
    await ok(env, sc.repo, "integrate", "--id", id);
    await live.append(chunk(lines, EXPECTED.claude.splitLine));
    const report = await ok(env, sc.repo, "report", "--id", id, "--chatgpt-image-generations", "2");
    const ps = report.json.parentSavings as Record<string, unknown>;
    assert.equal(ps.parentTokensSpent, EXPECTED.claude.end.totalTokens - EXPECTED.claude.start.totalTokens);
    assert.equal(ps.savingRatio, 2640 / (2640 + 93595));
    assert.equal(ps.money, null);
    assert.equal(ps.moneyUnavailableReason, "no parentRateCard in the config");
    const metrics = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "metrics.json")));
    assert.equal(metrics.worker.costUsd, 0.0009);
    assert.equal(metrics.worker.costSource, "reported");
    assert.equal(metrics.visual.chatgptImageGenerations, 2);
    assert.equal(metrics.cohort.sampleSize, 1);
    assert.equal(metrics.cohort.recommendation, "collect-more-data");
    // A later report without the flag keeps the image count.
    await ok(env, sc.repo, "report", "--id", id);
    const again = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "metrics.json")));
    assert.equal(again.visual.chatgptImageGenerations, 2);
  } finally {
    await cleanup(env);
  }
});

Deno.test("spot parent-meter fails clearly without a thread id, and prepare refuses a missing snapshot", async () => {
  const env = await spotEnv();
  try {
    Object.assign(env.env, { PARENT_AGENT: "codex", CODEX_HOME: join(env.dir, "codex-home") });
    const out = join(env.dir, "start.json");
    const r = await spot(env, env.dir, "parent-meter", "--output", out);
    assert.equal(r.code, 2);
    assert.equal((r.json.error as { code: string }).code, "PARENT_METER_FAILED");
    assert.match((r.json.error as { message: string }).message, /no thread id/);
    assert.equal(await Deno.stat(out).then(() => true, () => false), false);

    const sc = await demoScenario(env.dir);
    const prep = await spot(
      env,
      sc.repo,
      "prepare",
      "--task",
      sc.taskFile,
      "--profile",
      "replay",
      "--model",
      sc.episodeFile,
      "--usage-start",
      out,
    );
    assert.equal(prep.code, 2);
    assert.equal((prep.json.error as { code: string }).code, "USAGE_SNAPSHOT_INVALID");
    const runs = await Array.fromAsync(Deno.readDir(join(env.stateDir, "runs")));
    assert.equal(runs.length, 0, "a refused snapshot creates no run");

    const trae = await spot(
      { ...env, env: { ...env.env, PARENT_AGENT: "trae" } },
      env.dir,
      "parent-meter",
      "--output",
      out,
    );
    assert.equal(trae.code, 0);
    assert.equal(trae.json.available, false);
    assert.match(String(trae.json.reason), /Trae/);
  } finally {
    await cleanup(env);
  }
});

Deno.test("spot report refuses an unknown --format before touching the run", async () => {
  const env = await spotEnv();
  try {
    const r = await spot(env, env.dir, "report", "--id", "no-such-run", "--format", "xml");
    assert.equal(r.code, 2);
    assert.match((r.json.error as { message: string }).message, /format "xml": use json or parent/);
  } finally {
    await cleanup(env);
  }
});
