import assert from "node:assert/strict";
import { ReviewResult } from "./review_result.ts";

const SHA = "a".repeat(64);

function finding(priority: string): Record<string, unknown> {
  return {
    priority,
    file: "src/a.ts",
    line: 3,
    problem: "off by one",
    evidence: "loop runs n+1 times",
    requiredChange: "use < instead of <=",
  };
}

function review(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: SHA,
    findings: [],
    verificationGaps: [],
    summary: "Looks right.",
    ...overrides,
  };
}

function refusedAt(input: unknown, path: string): void {
  const r = ReviewResult.safeParse(input);
  assert.equal(r.success, false, `accepted: ${JSON.stringify(input)}`);
  const paths = r.error!.issues.map((i) => i.path.join("."));
  assert.ok(paths.includes(path), `no issue at ${path}: ${paths.join(", ")}`);
}

function ok(input: unknown): void {
  const r = ReviewResult.safeParse(input);
  assert.ok(r.success, JSON.stringify(r.error?.issues));
}

Deno.test("ReviewResult accepts a clean approve", () => {
  ok(review());
});

Deno.test("ReviewResult refuses approve with a P1 finding", () => {
  refusedAt(review({ findings: [finding("P1")] }), "verdict");
});

Deno.test("ReviewResult refuses approve with a P0 or P2 finding", () => {
  refusedAt(review({ findings: [finding("P0")] }), "verdict");
  refusedAt(review({ findings: [finding("P3"), finding("P2")] }), "verdict");
});

Deno.test("ReviewResult accepts approve with only a P3 finding", () => {
  ok(review({ findings: [finding("P3")] }));
});

Deno.test("ReviewResult refuses approve with a verification gap", () => {
  refusedAt(review({ verificationGaps: ["no test covers the empty list"] }), "verdict");
});

Deno.test("ReviewResult refuses revise with only a P3 finding", () => {
  refusedAt(review({ verdict: "revise", findings: [finding("P3")] }), "verdict");
  refusedAt(review({ verdict: "revise" }), "verdict");
});

Deno.test("ReviewResult accepts revise with a P2 finding", () => {
  ok(review({ verdict: "revise", findings: [finding("P2")] }));
});

Deno.test("ReviewResult accepts revise with only a verification gap", () => {
  ok(review({ verdict: "revise", verificationGaps: ["untested branch"] }));
});

Deno.test("ReviewResult refuses a diffSha256 that is not 64 lower-case hex digits", () => {
  for (const sha of ["a".repeat(63), "a".repeat(65), "A".repeat(64), "g".repeat(64), ""]) {
    refusedAt(review({ diffSha256: sha }), "diffSha256");
  }
  ok(review({ diffSha256: "0123456789abcdef".repeat(4) }));
});

Deno.test("ReviewResult refuses an unknown verdict, priority or extra key", () => {
  refusedAt(review({ verdict: "maybe" }), "verdict");
  refusedAt(review({ verdict: "revise", findings: [finding("P4")] }), "findings.0.priority");
  assert.equal(ReviewResult.safeParse(review({ extra: 1 })).success, false);
});

Deno.test("ReviewResult refuses an empty verification gap string", () => {
  refusedAt(review({ verdict: "revise", verificationGaps: [""] }), "verificationGaps.0");
});
