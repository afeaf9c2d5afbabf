import assert from "node:assert/strict";
import { plainReview } from "./review.ts";
import { ReviewResult } from "../review_result.ts";

const SHA = "a".repeat(64);
const finding = (priority: string, line: number | null = 3) => ({
  priority,
  file: "src/a.ts",
  line,
  problem: "off by one",
  evidence: "",
  requiredChange: "use <=",
});
const BASES: Record<string, unknown>[] = [
  {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: SHA,
    findings: [],
    verificationGaps: [],
    summary: "ok",
  },
  {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: SHA,
    findings: [finding("P3", null)],
    verificationGaps: [],
    summary: "fine, one nit ✓",
  },
  {
    schemaVersion: 1,
    verdict: "revise",
    diffSha256: SHA,
    findings: [finding("P1"), finding("P3")],
    verificationGaps: [],
    summary: "fix it",
  },
  {
    schemaVersion: 1,
    verdict: "revise",
    diffSha256: SHA,
    findings: [],
    verificationGaps: ["no test"],
    summary: "s",
  },
];

const ODD_VALUES: unknown[] = [
  null,
  "",
  "x",
  0,
  1,
  -1,
  1.5,
  2 ** 53,
  true,
  [],
  {},
  ["x"],
  [""],
  "P4",
  "approve",
  "revise",
  "A".repeat(64),
  "a".repeat(63),
  "s".repeat(4000),
  "s".repeat(4001),
  [finding("P0")],
  [finding("P3")],
  [finding("P2", 0)],
  [{ ...finding("P3"), extra: 1 }],
];

/** A small seeded generator, so a failure names the same case every time. */
function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function mutate(base: Record<string, unknown>, pick: () => number): unknown {
  const copy: Record<string, unknown> = structuredClone(base);
  const steps = 1 + Math.floor(pick() * 3);
  for (let s = 0; s < steps; s++) {
    const keys = [...Object.keys(copy), "extra", "__proto__"];
    const key = keys[Math.floor(pick() * keys.length)];
    const r = pick();
    if (r < 0.15) delete copy[key];
    else if (
      r < 0.3 && Array.isArray(copy.findings) && copy.findings[0] && typeof copy.findings[0] === "object"
    ) {
      const f = copy.findings[0] as Record<string, unknown>;
      const fk = [...Object.keys(f), "extra"][Math.floor(pick() * 7)];
      f[fk] = ODD_VALUES[Math.floor(pick() * ODD_VALUES.length)];
    } else copy[key] = structuredClone(ODD_VALUES[Math.floor(pick() * ODD_VALUES.length)]);
  }
  // Through JSON text, as a review file is read (a "__proto__" key becomes an own property).
  return JSON.parse(
    JSON.stringify(copy).replace('"extra"', Math.floor(pick() * 2) ? '"__proto__"' : '"extra"'),
  );
}

Deno.test("plainReview accepts the plainly valid reviews, unchanged, as the schema does", () => {
  for (const base of BASES) {
    assert.deepEqual(plainReview(structuredClone(base)), base);
    assert.deepEqual(ReviewResult.parse(base), base);
  }
});

Deno.test("plainReview accepts nothing the schema refuses and returns what the schema returns", () => {
  const pick = random(30);
  let fast = 0;
  let refused = 0;
  for (let i = 0; i < 8_000; i++) {
    const value = mutate(BASES[i % BASES.length], pick);
    const schema = ReviewResult.safeParse(value);
    const plain = plainReview(value);
    if (!schema.success) refused++;
    if (plain === null) continue;
    fast++;
    assert.ok(schema.success, `plainReview accepted what the schema refuses: ${JSON.stringify(value)}`);
    assert.deepEqual(schema.data, plain);
  }
  // Both kinds are exercised: many mutations are refused, and some still pass the fast path.
  assert.ok(refused > 4_000, `only ${refused} refused`);
  assert.ok(fast > 200, `only ${fast} accepted on the fast path`);
});

Deno.test("plainReview leaves anything not a plain object to the schema", () => {
  for (const value of [null, [], "x", 1, Object.create(null), new Map()]) {
    assert.equal(plainReview(value), null);
  }
});
