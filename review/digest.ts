/**
 * The self-review as a parent reads it at tier A or B, beside the hunks: each criterion with its status
 * and how many places its evidence cites, the findings, the summary. Which hunk each criterion vouches
 * for is listed in review-guide.json (`covered`); the worker's notes are left out, since its claims are
 * never evidence and the parent reads the code of the drawn citations instead. The full self-review.json
 * stays on disk for anyone who wants the prose. Pure.
 */
import type { SelfReview } from "../schemas/self_review.ts";

export interface SelfReviewDigest {
  summary: string;
  criteria: {
    criterion: string;
    status: string;
    /** How many places its evidence cites. */
    cites: number;
  }[];
  findings: { priority: string; at: string; problem: string }[];
}

const at = (file: string, line: number | null) => line === null ? file : `${file}:${line}`;

export function digestSelfReview(report: SelfReview): SelfReviewDigest {
  return {
    summary: report.summary,
    criteria: report.acceptanceEvidence.map((c) => ({
      criterion: c.criterion,
      status: c.status,
      cites: c.evidence.length,
    })),
    findings: report.findings.map((f) => ({
      priority: f.priority,
      at: at(f.file, f.line),
      problem: f.problem,
    })),
  };
}
