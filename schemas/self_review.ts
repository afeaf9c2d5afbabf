/** What the worker says about its own diff; a map of where to look, never a verdict. */
import { z } from "zod";
import { Priority } from "./review_result.ts";

export const SelfReview = z.object({
  schemaVersion: z.literal(1),
  runId: z.string(),
  diffSha256: z.string(),
  acceptanceEvidence: z.array(
    z.object({
      criterion: z.string().max(1000),
      status: z.enum(["met", "uncertain", "unmet"]),
      evidence: z.array(
        z.object({
          file: z.string(),
          line: z.number().int().min(1).nullable(),
          note: z.string().optional(),
        }).strict(),
      ),
    }).strict(),
  ).min(1),
  findings: z.array(
    z.object({
      priority: Priority,
      file: z.string(),
      line: z.number().int().min(1).nullable(),
      problem: z.string(),
      requiredChange: z.string(),
    }).strict(),
  ),
  uncertainCriteria: z.array(z.string()),
  summary: z.string(),
}).strict();
export type SelfReview = z.infer<typeof SelfReview>;
