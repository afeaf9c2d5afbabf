import assert from "node:assert/strict";
import type { SelfReview } from "../schemas/self_review.ts";
import type { Hunk } from "../verify/hunks.ts";
import { fullReview, guideFromSelfReview } from "./tiers.ts";

const hunk = (file: string, newStart: number): Hunk => ({
  file,
  fileHeader: "",
  newStart,
  newCount: 5,
  text: `@@ ${file} ${newStart}\n+x`,
});
const HUNKS = [hunk("a.ts", 1), hunk("a.ts", 50), hunk("b.ts", 10), hunk("c.ts", 3)];
const report = (evidence: [string, number | null][][]): SelfReview => ({
  schemaVersion: 1,
  runId: "r",
  diffSha256: "h",
  acceptanceEvidence: evidence.map((ev, i) => ({
    criterion: `criterion ${i}`,
    status: "met",
    evidence: ev.map(([file, line]) => ({ file, line })),
  })),
  findings: [],
  uncertainCriteria: [],
  summary: "s",
});
const ok = { diffSha256Mismatch: false, fallbackRecommended: false, spotCheckRequired: 1 };

Deno.test("guideFromSelfReview() at tier A lists the spot-checked hunks and files no evidence covers", () => {
  const r = report([[["a.ts", 52]], [["b.ts", 11]]]);
  const picks = new Set<string>();
  for (const seed of ["s1", "s2", "s3", "s4", "s5", "s6"]) {
    const guide = guideFromSelfReview(r, ok, HUNKS, seed);
    assert.equal(guide.tier, "A");
    assert.equal(guide.hunks.length, 2, "one spot-checked hunk plus the file no evidence covers");
    assert.deepEqual(guide.hunks[1], {
      file: "c.ts",
      newStart: 3,
      newCount: 5,
      reason: "no evidence points at this file",
    });
    assert.ok(guide.hunkBytes < guide.diffBytes);
    assert.deepEqual(guideFromSelfReview(r, ok, HUNKS, seed), guide, "the same seed gives the same guide");
    picks.add(`${guide.hunks[0].file}:${guide.hunks[0].newStart}`);
  }
  assert.deepEqual([...picks].sort(), ["a.ts:50", "b.ts:10"], "different seeds check different criteria");
});

Deno.test("guideFromSelfReview() falls back to tier C on a hash mismatch or a recommended fallback", () => {
  assert.equal(
    guideFromSelfReview(report([[["a.ts", 1]]]), { ...ok, diffSha256Mismatch: true }, HUNKS, "s").tier,
    "C",
  );
  const c = guideFromSelfReview(report([[["a.ts", 1]]]), { ...ok, fallbackRecommended: true }, HUNKS, "s");
  assert.deepEqual([c.tier, c.hunks.length, c.hunkBytes], ["C", 4, c.diffBytes]);
  assert.equal(fullReview(HUNKS, "x").hunks.length, 4);
});
