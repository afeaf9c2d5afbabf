import assert from "node:assert/strict";
import type { Phase, SpotEvent, Usage } from "../schemas/events.ts";
import { counterfactualUsage, summarizeWorker } from "./worker_usage.ts";

const ZERO_STATE = { workerUsage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, workerCostUsd: 0 };
const PRICING = {
  inputPerMillion: 0.27,
  outputPerMillion: 1.1,
  cacheReadPerMillion: 0.07,
  cacheWritePerMillion: 0.27,
};

function usage(phase: Phase, u: Usage, costUsd = 0, extra: Record<string, unknown> = {}): SpotEvent {
  return { type: "worker_usage", phase, usage: u, costUsd, at: "t", runId: "r", ...extra } as SpotEvent;
}
const RUN = { input: 1800, output: 240, cacheRead: 600, cacheWrite: 0 };
const REVISE = { input: 300, output: 60, cacheRead: 2000, cacheWrite: 100 };
const SELF = { input: 500, output: 80, cacheRead: 0, cacheWrite: 0 };

Deno.test("summarizeWorker() splits usage by phase and counts only run and revise as the counterfactual", () => {
  const s = summarizeWorker({
    events: [usage("run", RUN, 0.001), usage("revise", REVISE, 0.0005), usage("self-review", SELF, 0.0002)],
    state: ZERO_STATE,
    pricing: undefined,
  });
  assert.deepEqual(s.byPhase.revise, REVISE);
  assert.equal(s.totalTokens, 2640 + 2460 + 580);
  assert.deepEqual(counterfactualUsage(s), { input: 2100, output: 300, cacheRead: 2600, cacheWrite: 100 });
  assert.equal(s.costSource, "reported");
  assert.equal(s.costUsd, 0.001 + 0.0005 + 0.0002);
});

Deno.test("summarizeWorker() prices tokens reported without a cost at the profile's pricing", () => {
  const s = summarizeWorker({ events: [usage("run", RUN)], state: ZERO_STATE, pricing: PRICING });
  assert.equal(s.costSource, "pricing");
  assert.equal(s.costUsd, (1800 * 0.27 + 240 * 1.1 + 600 * 0.07) / 1e6);
});

Deno.test("summarizeWorker() leaves the cost unknown, not zero, for tokens with no cost and no pricing", () => {
  const s = summarizeWorker({
    events: [usage("run", RUN, 0.001), usage("revise", REVISE)],
    state: ZERO_STATE,
    pricing: undefined,
  });
  assert.equal(s.costUsd, null);
  assert.equal(s.costSource, "unknown");
  assert.match(s.costNote!, /1 usage record/);
  const mixed = summarizeWorker({
    events: [usage("run", RUN, 0.001), usage("revise", REVISE)],
    state: ZERO_STATE,
    pricing: PRICING,
  });
  assert.equal(mixed.costSource, "reported+pricing");
});

Deno.test("summarizeWorker() sums credits when the adapter reports them", () => {
  const s = summarizeWorker({
    events: [usage("run", RUN, 0, { credits: 1.5 }), usage("revise", REVISE, 0, { credits: 0.5 })],
    state: ZERO_STATE,
    pricing: PRICING,
  });
  assert.equal(s.credits, 2);
  assert.equal(
    summarizeWorker({ events: [usage("run", RUN)], state: ZERO_STATE, pricing: PRICING }).credits,
    null,
  );
});

Deno.test("summarizeWorker() falls back to the run state when the log has no usage", () => {
  const s = summarizeWorker({
    events: [],
    state: { workerUsage: RUN, workerCostUsd: 0.002 },
    pricing: undefined,
  });
  assert.equal(s.usageSource, "state");
  assert.deepEqual(s.usage, RUN);
  assert.equal(s.costUsd, 0.002);
  const none = summarizeWorker({ events: [], state: ZERO_STATE, pricing: undefined });
  assert.equal(none.costSource, "none");
  assert.equal(none.costUsd, 0);
});
