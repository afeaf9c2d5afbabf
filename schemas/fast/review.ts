/**
 * The fast path of a review file: a review that is plainly valid is accepted without loading zod (about 60 ms
 * of CPU in every `spot approve`; docs/performance.md). It accepts only what `ReviewResult` in
 * schemas/review_result.ts accepts, and returns it unchanged (that schema has no defaults or transforms, so
 * zod's output equals its input); anything else (a problem, or a value it is not sure of) returns null and
 * goes to zod, which says what is wrong. schemas/fast/review_test.ts holds it to that on mutated reviews.
 */
import { BLOCKING_PRIORITIES } from "../constants.ts";
import type { ReviewResult } from "../review_result.ts";

const PRIORITIES = new Set(["P0", "P1", "P2", "P3"]);
const SHA256 = /^[0-9a-f]{64}$/;
const REVIEW_KEYS = ["schemaVersion", "verdict", "diffSha256", "findings", "verificationGaps", "summary"];
const FINDING_KEYS = ["priority", "file", "line", "problem", "evidence", "requiredChange"];

/** A plain JSON object (JSON.parse's kind) with exactly these keys, each its own. */
function exactly(value: unknown, keys: string[]): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(value, k));
}

const text = (value: unknown, min: number) => typeof value === "string" && value.length >= min;

function plainFinding(value: unknown): boolean {
  if (!exactly(value, FINDING_KEYS)) return false;
  const line = value.line;
  return typeof value.priority === "string" && PRIORITIES.has(value.priority) &&
    text(value.file, 1) && text(value.problem, 1) && text(value.evidence, 0) &&
    text(value.requiredChange, 0) &&
    (line === null || (typeof line === "number" && Number.isSafeInteger(line) && line >= 1));
}

/** The review when it is plainly valid, else null (the caller asks zod, which explains the problem). */
export function plainReview(value: unknown): ReviewResult | null {
  if (!exactly(value, REVIEW_KEYS)) return null;
  const { verdict, findings, verificationGaps, summary } = value;
  if (value.schemaVersion !== 1) return null;
  if (verdict !== "approve" && verdict !== "revise") return null;
  if (typeof value.diffSha256 !== "string" || !SHA256.test(value.diffSha256)) return null;
  if (!Array.isArray(findings) || !findings.every(plainFinding)) return null;
  if (!Array.isArray(verificationGaps) || !verificationGaps.every((g) => text(g, 1))) return null;
  if (!text(summary, 1) || (summary as string).length > 4000) return null;
  const blocking = findings.some((f) => BLOCKING_PRIORITIES.has(f.priority)) || verificationGaps.length > 0;
  if ((verdict === "approve") === blocking) return null;
  return value as unknown as ReviewResult;
}
