/** How much of a self-review the parent must check by hand, and when to ignore it. */
import { BLOCKING_PRIORITIES } from "../schemas/review_result.ts";
import type { SelfReview } from "../schemas/self_review.ts";

/** 25 × 0.28 is 7.000000000000001 in floating point; an exact product must not round up. */
const FLOAT_SLACK = 1e-9;

export interface SelfReviewSignals {
  diffSha256Mismatch: boolean;
  spotCheckRequired: number;
  fallbackRecommended: boolean;
}

export function selfReviewSignals(
  report: SelfReview,
  expectedSha: string,
  options: { spotCheckCount: number; spotCheckRatio: number },
): SelfReviewSignals {
  const statuses = report.acceptanceEvidence.map((e) => e.status);
  const met = statuses.filter((s) => s === "met").length;
  const uncertain = statuses.filter((s) => s === "uncertain").length;
  const unmet = statuses.filter((s) => s === "unmet").length;
  const diffSha256Mismatch = report.diffSha256 !== expectedSha;
  const spotCheckRequired = Math.max(
    options.spotCheckCount,
    Math.ceil(met * options.spotCheckRatio - FLOAT_SLACK),
    uncertain,
  );
  const fallbackRecommended = diffSha256Mismatch || unmet > 0 || uncertain > 0 ||
    report.findings.some((f) => BLOCKING_PRIORITIES.has(f.priority));
  return { diffSha256Mismatch, spotCheckRequired, fallbackRecommended };
}

/** The first JSON object in a worker's text: whole text, a fenced block, then first `{` to last `}`. */
export function extractJsonObject(text: string): unknown {
  const attempts = [text.trim()];
  const fence = text.match(/```(?:json)?\s*\n([\s\S]*?)```/);
  if (fence) attempts.push(fence[1].trim());
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first >= 0 && last > first) attempts.push(text.slice(first, last + 1));
  for (const candidate of attempts) {
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next shape
    }
  }
  return undefined;
}
