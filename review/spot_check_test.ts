import assert from "node:assert/strict";
import type { SelfReview } from "../schemas/self_review.ts";
import { extractJsonObject, selfReviewSignals } from "./spot_check.ts";

const SHA = "b".repeat(64);
const OPTS = { spotCheckCount: 1, spotCheckRatio: 0 };

type Status = "met" | "uncertain" | "unmet";

function report(statuses: Status[], overrides: Partial<SelfReview> = {}): SelfReview {
  return {
    schemaVersion: 1,
    runId: "run-1",
    diffSha256: SHA,
    acceptanceEvidence: statuses.map((status, i) => ({
      criterion: `criterion ${i}`,
      status,
      evidence: [{ file: "src/a.ts", line: i + 1 }],
    })),
    findings: [],
    uncertainCriteria: [],
    summary: "done",
    ...overrides,
  };
}

function finding(priority: "P0" | "P1" | "P2" | "P3"): SelfReview["findings"][number] {
  return { priority, file: "src/a.ts", line: 1, problem: "p", requiredChange: "c" };
}

Deno.test("extractJsonObject() parses a plain JSON object", () => {
  assert.deepEqual(extractJsonObject('{"a": 1, "b": [2]}'), { a: 1, b: [2] });
  assert.deepEqual(extractJsonObject('\n  {"a": 1}\n\n'), { a: 1 });
});

Deno.test("extractJsonObject() parses a fenced json block", () => {
  const text = 'Here is my review:\n```json\n{"a": 1}\n```\nThanks.';
  assert.deepEqual(extractJsonObject(text), { a: 1 });
});

Deno.test("extractJsonObject() prefers the fenced block over braces in the surrounding prose", () => {
  const text = 'I changed {the parser}.\n```\n{"a": {"b": 2}}\n```\nSee {notes}.';
  assert.deepEqual(extractJsonObject(text), { a: { b: 2 } });
});

Deno.test("extractJsonObject() finds an object embedded in prose", () => {
  assert.deepEqual(extractJsonObject('Result: {"a": {"b": "}"}} - that is all.'), { a: { b: "}" } });
});

Deno.test("extractJsonObject() returns undefined for garbage", () => {
  assert.equal(extractJsonObject("I could not finish the review."), undefined);
  assert.equal(extractJsonObject("{not json at all}"), undefined);
  assert.equal(extractJsonObject("} backwards {"), undefined);
  assert.equal(extractJsonObject(""), undefined);
  assert.equal(extractJsonObject('```json\n{"a": \n```'), undefined);
});

Deno.test("selfReviewSignals() flags a sha mismatch and recommends the fallback", () => {
  const s = selfReviewSignals(report(["met", "met"]), "c".repeat(64), OPTS);
  assert.equal(s.diffSha256Mismatch, true);
  assert.equal(s.fallbackRecommended, true);
});

Deno.test("selfReviewSignals() with all criteria met and a matching sha recommends no fallback", () => {
  const s = selfReviewSignals(report(["met", "met", "met"]), SHA, OPTS);
  assert.deepEqual(s, { diffSha256Mismatch: false, spotCheckRequired: 1, fallbackRecommended: false });
});

Deno.test("selfReviewSignals() raises spotCheckRequired to the number of uncertain criteria", () => {
  const s = selfReviewSignals(report(["met", "uncertain", "uncertain", "uncertain"]), SHA, OPTS);
  assert.equal(s.spotCheckRequired, 3);
  assert.equal(s.fallbackRecommended, true);
});

Deno.test("selfReviewSignals() recommends the fallback for an unmet criterion", () => {
  assert.equal(selfReviewSignals(report(["met", "unmet"]), SHA, OPTS).fallbackRecommended, true);
});

Deno.test("selfReviewSignals() recommends the fallback for a P2 finding but not for a P3", () => {
  assert.equal(
    selfReviewSignals(report(["met"], { findings: [finding("P2")] }), SHA, OPTS).fallbackRecommended,
    true,
  );
  assert.equal(
    selfReviewSignals(report(["met"], { findings: [finding("P0")] }), SHA, OPTS).fallbackRecommended,
    true,
  );
  assert.equal(
    selfReviewSignals(report(["met"], { findings: [finding("P3")] }), SHA, OPTS).fallbackRecommended,
    false,
  );
});

Deno.test("selfReviewSignals() requires ceil(met * ratio) spot checks when that beats the count", () => {
  const five = report(["met", "met", "met", "met", "met"]);
  assert.equal(selfReviewSignals(five, SHA, { spotCheckCount: 1, spotCheckRatio: 0.5 }).spotCheckRequired, 3);
  assert.equal(
    selfReviewSignals(five, SHA, { spotCheckCount: 1, spotCheckRatio: 0.34 }).spotCheckRequired,
    2,
  );
  assert.equal(selfReviewSignals(five, SHA, { spotCheckCount: 1, spotCheckRatio: 1 }).spotCheckRequired, 5);
  const four = report(["met", "met", "met", "met"]);
  assert.equal(
    selfReviewSignals(four, SHA, { spotCheckCount: 0, spotCheckRatio: 0.25 }).spotCheckRequired,
    1,
  );
});

Deno.test("selfReviewSignals() never requires fewer than spotCheckCount spot checks", () => {
  const two = report(["met", "met"]);
  assert.equal(selfReviewSignals(two, SHA, { spotCheckCount: 4, spotCheckRatio: 0.5 }).spotCheckRequired, 4);
  assert.equal(selfReviewSignals(two, SHA, { spotCheckCount: 0, spotCheckRatio: 0 }).spotCheckRequired, 0);
});

Deno.test("selfReviewSignals() counts only met criteria in the ratio", () => {
  const mixed = report(["met", "met", "unmet", "unmet", "unmet", "unmet"]);
  assert.equal(
    selfReviewSignals(mixed, SHA, { spotCheckCount: 0, spotCheckRatio: 0.5 }).spotCheckRequired,
    1,
  );
});

// Regression (fixed): review/spot_check.ts selfReviewSignals() computes Math.ceil(met * ratio) in floating point,
// so 25 met criteria at ratio 0.28 (exactly 7) gives ceil(7.000000000000001) = 8 spot checks.
Deno.test({
  name: "selfReviewSignals() does not round an exact met * ratio product up by one",
  fn: () => {
    const many = report(Array.from({ length: 25 }, () => "met" as const));
    assert.equal(
      selfReviewSignals(many, SHA, { spotCheckCount: 0, spotCheckRatio: 0.28 }).spotCheckRequired,
      7,
    );
  },
});
