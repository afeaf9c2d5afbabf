import assert from "node:assert/strict";
import type { SelfReview } from "../schemas/self_review.ts";
import { digestSelfReview } from "./digest.ts";

const REPORT: SelfReview = {
  schemaVersion: 1,
  runId: "r",
  diffSha256: "x",
  acceptanceEvidence: [
    {
      criterion: "guards",
      status: "met",
      evidence: [{ file: "a.ts", line: 5, note: "throws on < 0" }, { file: "a.ts", line: 40 }],
    },
    { criterion: "rounding", status: "uncertain", evidence: [{ file: "b.ts", line: null, note: "see b" }] },
  ],
  findings: [{ priority: "P3", file: "a.ts", line: 9, problem: "naming", requiredChange: "rename" }],
  uncertainCriteria: [],
  summary: "Guards and rounding.",
};

Deno.test("digestSelfReview() keeps every criterion's status and how much it cites, and no notes", () => {
  const d = digestSelfReview(REPORT);
  assert.deepEqual(d.criteria, [
    { criterion: "guards", status: "met", cites: 2 },
    { criterion: "rounding", status: "uncertain", cites: 1 },
  ]);
  assert.deepEqual(d.findings, [{ priority: "P3", at: "a.ts:9", problem: "naming" }]);
  assert.equal(d.summary, "Guards and rounding.");
  assert.ok(!JSON.stringify(d).includes("throws"), "the worker's notes are not evidence");
});
