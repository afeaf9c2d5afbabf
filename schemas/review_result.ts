/** The parent's verdict on a run, bound to the exact diff it reviewed. */
import { z } from "zod";
import { BLOCKING_PRIORITIES } from "./constants.ts";

export { BLOCKING_PRIORITIES };

export const Priority = z.enum(["P0", "P1", "P2", "P3"]);

export const ReviewFinding = z.object({
  priority: Priority,
  file: z.string().min(1),
  line: z.number().int().min(1).nullable(),
  problem: z.string().min(1),
  evidence: z.string(),
  requiredChange: z.string(),
}).strict();

export const ReviewResult = z.object({
  schemaVersion: z.literal(1).describe("Always 1"),
  verdict: z.enum(["approve", "revise"])
    .describe("approve only without P0-P2 findings or gaps; revise only with one"),
  diffSha256: z.string().regex(/^[0-9a-f]{64}$/, "must be a sha256 hex digest")
    .describe("The diff reviewed, as `spot verify` printed it; approval of another diff is refused"),
  findings: z.array(ReviewFinding).describe("Problems found, each with where, why and what to change"),
  verificationGaps: z.array(z.string().min(1)).describe(
    "What the checks did not show; any one blocks approval",
  ),
  summary: z.string().min(1).max(4000).describe("The review in a few sentences"),
}).strict().describe("The parent's verdict on a run, bound to the exact diff it reviewed").superRefine(
  (review, ctx) => {
    const blocking = review.findings.some((f) => BLOCKING_PRIORITIES.has(f.priority)) ||
      review.verificationGaps.length > 0;
    if (review.verdict === "approve" && blocking) {
      ctx.addIssue({
        code: "custom",
        path: ["verdict"],
        message: "cannot approve with a P0-P2 finding or a verification gap",
      });
    }
    if (review.verdict === "revise" && !blocking) {
      ctx.addIssue({
        code: "custom",
        path: ["verdict"],
        message: "a revise verdict needs a P0-P2 finding or a verification gap",
      });
    }
  },
);
export type ReviewResult = z.infer<typeof ReviewResult>;
