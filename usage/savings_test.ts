import assert from "node:assert/strict";
import type { ParentRateCard } from "../schemas/config.ts";
import { computeParentSavings, estimateSavings, type ParentMeasurement } from "./savings.ts";
import { WEEKS_PER_MONTH } from "./pricing.ts";
import { landingOf } from "./landing.ts";

const LANDED = landingOf("integrated");

const WORKER = { input: 1800, output: 240, cacheRead: 600, cacheWrite: 0 };
const PARENT_USAGE = { input: 2000, cacheRead: 8000, cacheWrite: 0, output: 560, reasoning: 100 };
const MEASURED: ParentMeasurement = {
  available: true,
  agent: "codex",
  usage: PARENT_USAGE,
  totalTokens: 10560,
};
const CARD: ParentRateCard = {
  model: "gpt-test",
  effectiveDate: "2026-07-01",
  source: "https://example.invalid/rates",
  creditsPerMillion: { nonCachedInput: 125, cachedInput: 12.5, output: 750 },
};

Deno.test("computeParentSavings() counts the worker's tokens as avoided and computes the ratio", () => {
  const s = computeParentSavings({
    counterfactual: WORKER,
    landing: LANDED,
    parent: MEASURED,
    rateCard: null,
    subscription: null,
  });
  assert.equal(s.label, "estimate-not-ab-test");
  assert.equal(s.estimatedTokensAvoided, 2640);
  assert.equal(s.parentTokensSpent, 10560);
  assert.equal(s.savingRatio, 0.2);
  assert.match(s.basis, /counterfactual/);
  assert.equal(s.money, null);
  assert.equal(s.moneyUnavailableReason, "no parentRateCard in the config");
});

Deno.test("computeParentSavings() gives no ratio when the parent was not measured", () => {
  const s = computeParentSavings({
    counterfactual: WORKER,
    landing: LANDED,
    parent: { available: false, reason: "trae is not metered" },
    rateCard: CARD,
    subscription: null,
  });
  assert.equal(s.parentTokensSpent, null);
  assert.equal(s.savingRatio, null);
  assert.equal(s.parentUnavailableReason, "trae is not metered");
  assert.equal(s.money?.credits?.avoided, 0.4125);
  assert.equal(s.money?.credits?.parentSpent, null);
});

Deno.test("computeParentSavings() prices both sides at the parent's rate card, dated and sourced", () => {
  const s = computeParentSavings({
    counterfactual: WORKER,
    landing: LANDED,
    parent: MEASURED,
    rateCard: CARD,
    subscription: null,
  });
  // 1800*125 + 600*12.5 + 240*750 = 412,500 per million; 2000*125 + 8000*12.5 + 560*750 = 770,000.
  assert.deepEqual(s.money?.credits, {
    avoided: 0.4125,
    parentSpent: 0.77,
    noDelegation: 0.4125 + 0.77,
    savingRatio: 0.4125 / (0.4125 + 0.77),
  });
  assert.deepEqual(s.money?.rateCard, {
    model: "gpt-test",
    effectiveDate: "2026-07-01",
    source: CARD.source,
  });
  assert.equal(s.money?.usd, null);
});

Deno.test("computeParentSavings() turns credits into dollars through the subscription", () => {
  const plan = { plan: "plus", monthlyUsd: 20, weeklyAllowanceCredits: 140 };
  const s = computeParentSavings({
    counterfactual: WORKER,
    landing: LANDED,
    parent: MEASURED,
    rateCard: CARD,
    subscription: plan,
  });
  const perCredit = 20 / (140 * WEEKS_PER_MONTH);
  assert.equal(s.money?.usd?.avoided, 0.4125 * perCredit);
  assert.equal(s.money?.usd?.parentSpent, 0.77 * perCredit);
  assert.match(s.money!.usd!.basis, /subscription plus.*not cash/);
});

Deno.test("computeParentSavings() uses a dollar rate card as is", () => {
  const card = {
    ...CARD,
    creditsPerMillion: undefined,
    usdPerMillion: { nonCachedInput: 1.25, cachedInput: 0.125, output: 10 },
  };
  const s = computeParentSavings({
    counterfactual: WORKER,
    landing: LANDED,
    parent: MEASURED,
    rateCard: card,
    subscription: null,
  });
  assert.equal(s.money?.credits, null);
  assert.equal(s.money?.usd?.avoided, (1800 * 1.25 + 600 * 0.125 + 240 * 10) / 1e6);
  assert.equal(s.money?.usd?.basis, "rate card usdPerMillion");
});

Deno.test("computeParentSavings() will not price one agent's tokens at another agent's card", () => {
  const s = computeParentSavings({
    counterfactual: WORKER,
    landing: LANDED,
    parent: { ...MEASURED, agent: "claude-code" },
    rateCard: { ...CARD, agent: "codex" },
    subscription: null,
  });
  assert.equal(s.money, null);
  assert.match(s.moneyUnavailableReason!, /for codex, the parent is claude-code/);
  // Near miss: the same card for the right agent prices.
  const ok = computeParentSavings({
    counterfactual: WORKER,
    landing: LANDED,
    parent: MEASURED,
    rateCard: { ...CARD, agent: "codex" },
    subscription: null,
  });
  assert.notEqual(ok.money, null);
});

Deno.test("estimateSavings() keeps the token-only estimate for views of unreported runs", () => {
  assert.equal(estimateSavings(WORKER, { status: "integrated" }).estimatedTokensAvoided, 2640);
  assert.equal(estimateSavings(WORKER, { status: "integrated", parentSpent: 7920 }).savingRatio, 0.25);
  assert.equal(estimateSavings(WORKER, { status: "blocked" }).estimatedTokensAvoided, 0);
});

Deno.test("computeParentSavings() counts nothing for work that did not land, and says why", () => {
  const input = { counterfactual: WORKER, parent: MEASURED, rateCard: CARD, subscription: null };
  const blocked = computeParentSavings({ ...input, landing: landingOf("blocked") });
  assert.equal(blocked.estimatedTokensAvoided, 0);
  assert.equal(blocked.landed, false);
  assert.match(blocked.notLandedReason!, /did not land \(the run is blocked\)/);
  // The parent spent tokens on a delegation that gave it nothing: its ratio is 0, not missing.
  assert.equal(blocked.savingRatio, 0);
  assert.equal(blocked.money?.credits?.avoided, 0);
  const reviewing = computeParentSavings({ ...input, landing: landingOf("reviewing") });
  assert.equal(reviewing.estimatedTokensAvoided, 0);
  assert.equal(reviewing.savingRatio, null, "a run under way has no ratio yet");
  assert.match(reviewing.notLandedReason!, /not landed \(the run is reviewing\); it counts once integrated/);
  for (const status of ["integrated", "succeeded"]) {
    const landed = computeParentSavings({ ...input, landing: landingOf(status) });
    assert.equal(landed.estimatedTokensAvoided, 2640, status);
    assert.equal(landed.notLandedReason, null);
  }
});
