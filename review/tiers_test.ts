import assert from "node:assert/strict";
import type { SelfReview } from "../schemas/self_review.ts";
import type { Hunk } from "../verify/hunks.ts";
import { fullReview, guideFromSelfReview, type ReviewGuide, tierOf } from "./tiers.ts";

const hunk = (file: string, newStart: number): Hunk => ({
  file,
  fileHeader: "",
  newStart,
  newCount: 7,
  text: `@@ -${newStart},6 +${newStart},7 @@\n+${file} ${newStart}`,
});
// a.ts has a fix near its top and another change 200 lines below it.
const HUNKS = [hunk("a.ts", 1), hunk("a.ts", 200), hunk("b.ts", 10), hunk("c.ts", 3)];
type Status = "met" | "uncertain" | "unmet";
const report = (
  criteria: [Status, [string, number | null][]][],
  extra: Partial<SelfReview> = {},
): SelfReview => ({
  schemaVersion: 1,
  runId: "r",
  diffSha256: "h",
  acceptanceEvidence: criteria.map(([status, ev], i) => ({
    criterion: `criterion ${i}`,
    status,
    evidence: ev.map(([file, line]) => ({ file, line })),
  })),
  findings: [],
  uncertainCriteria: [],
  summary: "s",
  ...extra,
});
const ok = { diffSha256Mismatch: false, fallbackRecommended: false, spotCheckRequired: 1 };
const P3 = {
  priority: "P3" as const,
  file: "b.ts",
  line: 12,
  problem: "a name is unclear",
  requiredChange: "x",
};
const SEEDS = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"];
const read = (g: ReviewGuide) => g.hunks.map((h) => `${h.file}:${h.newStart} ${h.reason}`);
const bytesOf = (keys: string[]) =>
  HUNKS.filter((h) => keys.includes(`${h.file}:${h.newStart}`))
    .reduce((n, h) => n + new TextEncoder().encode(h.text).length, 0);

Deno.test("a hunk no evidence cites is read at tier A even when another hunk of its file is cited", () => {
  const r = report([["met", [["a.ts", 3], ["b.ts", 12], ["c.ts", 4]]]]);
  for (const seed of SEEDS) {
    const guide = guideFromSelfReview(r, ok, HUNKS, seed);
    assert.equal(guide.tier, "A");
    assert.ok(read(guide).includes("a.ts:200 no evidence cites this hunk"), read(guide).join("; "));
  }
});

Deno.test("every hunk is either read or covered by the criteria that cite it, and readBytes counts the read text", () => {
  const r = report([["met", [["a.ts", 3], ["a.ts", 204]]], ["met", [["b.ts", 12]]], ["met", [["c.ts", 9]]]]);
  for (const seed of SEEDS) {
    const guide = guideFromSelfReview(r, ok, HUNKS, seed);
    const readKeys = guide.hunks.map((h) => `${h.file}:${h.newStart}`);
    const coveredKeys = guide.covered.map((h) => `${h.file}:${h.newStart}`);
    assert.deepEqual(
      [...readKeys, ...coveredKeys].sort(),
      HUNKS.map((h) => `${h.file}:${h.newStart}`).sort(),
    );
    assert.equal(guide.hunks.length, 1, "one spot-checked citation, nothing uncited");
    assert.match(guide.hunks[0].reason, /^spot-check: criterion \d$/);
    for (const c of guide.covered) {
      assert.deepEqual(c.coveredBy, [
        c.file === "a.ts" ? "criterion 0" : c.file === "b.ts" ? "criterion 1" : "criterion 2",
      ]);
    }
    assert.equal(guide.readBytes, bytesOf(readKeys));
    assert.equal(guide.diffBytes, bytesOf(HUNKS.map((h) => `${h.file}:${h.newStart}`)));
  }
});

Deno.test("a line-less citation cannot cover a file's hunks, and a far line covers none", () => {
  const r = report([["met", [["b.ts", 12]]], ["met", [["a.ts", null], ["c.ts", 500]]]]);
  const guide = guideFromSelfReview(r, ok, HUNKS, "s1");
  assert.deepEqual(read(guide), [
    "a.ts:1 no evidence cites this hunk",
    "a.ts:200 no evidence cites this hunk",
    "b.ts:10 spot-check: criterion 0",
    "c.ts:3 no evidence cites this hunk",
  ]);
});

Deno.test("the spot-check draw depends on the seed alone, and never lands on a criterion that cites nothing", () => {
  const r = report([["met", [["a.ts", 3]]], ["met", [["b.ts", 12]]], ["met", [["README.md", 1]]], [
    "met",
    [["c.ts", 4]],
  ]]);
  const picks = new Set<string>();
  for (const seed of SEEDS) {
    const guide = guideFromSelfReview(r, ok, HUNKS, seed);
    assert.deepEqual(guideFromSelfReview(r, ok, HUNKS, seed), guide, "the same seed gives the same guide");
    const checked = guide.hunks.filter((h) => h.reason.startsWith("spot-check"));
    assert.equal(checked.length, 1);
    picks.add(checked[0].reason);
  }
  assert.ok(picks.size > 1, "different seeds check different criteria");
  assert.ok(!picks.has("spot-check: criterion 2"), "criterion 2 cites nothing in the diff");
});

Deno.test("tierOf() gives C for another diff's hash, an unmet criterion or a P0-P2 finding", () => {
  const clean = report([["met", [["a.ts", 3]]]]);
  assert.equal(tierOf(clean, { ...ok, diffSha256Mismatch: true }).tier, "C");
  assert.equal(tierOf(report([["met", [["a.ts", 3]]], ["unmet", []]]), ok).tier, "C");
  for (const priority of ["P0", "P1", "P2"] as const) {
    assert.equal(tierOf(report([["met", [["a.ts", 3]]]], { findings: [{ ...P3, priority }] }), ok).tier, "C");
  }
  assert.equal(tierOf(clean, ok).tier, "A");
});

Deno.test("tierOf() gives B, not C, for an uncertain criterion or a P3 finding, whatever fallbackRecommended says", () => {
  const fallback = { ...ok, fallbackRecommended: true };
  assert.equal(tierOf(report([["met", [["a.ts", 3]]], ["uncertain", [["b.ts", 12]]]]), fallback).tier, "B");
  assert.equal(tierOf(report([["met", [["a.ts", 3]]]], { findings: [P3] }), ok).tier, "B");
  assert.equal(
    tierOf(report([["met", [["a.ts", 3]]]], { uncertainCriteria: ["criterion 0"] }), ok).tier,
    "B",
  );
});

Deno.test("tier B reads every hunk the doubted criteria and the P3 findings point at, plus the spot-check", () => {
  const r = report([["met", [["c.ts", 4]]], ["uncertain", [["a.ts", null]]]], { findings: [P3] });
  const guide = guideFromSelfReview(r, { ...ok, fallbackRecommended: true }, HUNKS, "s1");
  assert.equal(guide.tier, "B");
  assert.deepEqual(read(guide), [
    "a.ts:1 uncertain: criterion 1",
    "a.ts:200 uncertain: criterion 1",
    "b.ts:10 P3 finding: a name is unclear",
    "c.ts:3 spot-check: criterion 0",
  ]);
  assert.deepEqual(guide.covered, []);
});

Deno.test("tier C reads the whole diff", () => {
  const c = guideFromSelfReview(report([["unmet", [["a.ts", 3]]]]), ok, HUNKS, "s");
  assert.deepEqual([c.tier, c.hunks.length, c.covered.length, c.readBytes], ["C", 4, 0, c.diffBytes]);
  assert.deepEqual(fullReview(HUNKS, "x").hunks.map((h) => h.reason), Array(4).fill("full review"));
});

/** a.ts's hunk at 200 adds an early exit; every criterion cites it, so no rule but the risk one would read it. */
const EXIT_HUNKS = [
  HUNKS[0],
  { ...hunk("a.ts", 200), text: "@@ -200,6 +200,7 @@\n ok\n+  process.exit(0);" },
  HUNKS[2],
  HUNKS[3],
];

Deno.test("a hunk that adds an exit is shown at tiers A and B whatever the self-review cites, with its reason", () => {
  const cites: [string, number][] = [["a.ts", 3], ["a.ts", 201], ["b.ts", 12], ["c.ts", 4]];
  const atA = report([["met", cites]]);
  const atB = report([["met", cites]], { findings: [P3] });
  for (const r of [atA, atB]) {
    for (const seed of SEEDS) {
      const guide = guideFromSelfReview(r, ok, EXIT_HUNKS, seed);
      assert.ok(guide.tier === "A" || guide.tier === "B");
      const exit = guide.hunks.find((h) => h.newStart === 200);
      assert.equal(
        exit?.reason,
        "always shown: adds process control (process.exit( at line 201)",
        read(guide).join("; "),
      );
      assert.equal(guide.alwaysShown, 1);
      assert.match(guide.why, /, 1 always shown$/);
      // The spot check is not spent on it: one more hunk is drawn besides.
      assert.equal(guide.hunks.filter((h) => h.reason.startsWith("spot-check")).length, 1);
    }
  }
  const c = fullReview(EXIT_HUNKS, "x");
  assert.equal(
    c.hunks[1].reason,
    "full review; always shown: adds process control (process.exit( at line 201)",
  );
  assert.equal(c.alwaysShown, 1);
});

Deno.test("padding the fix's citations no longer hides the payload: the hunk cited once is read for every seed", () => {
  const padded = report([["met", [...Array(10).fill(["a.ts", 3]), ["a.ts", 204]]]]);
  for (const seed of SEEDS) {
    const guide = guideFromSelfReview(padded, ok, HUNKS.slice(0, 2), seed);
    assert.ok(guide.hunks.some((h) => h.newStart === 200), `${seed}: ${read(guide).join("; ")}`);
  }
});
