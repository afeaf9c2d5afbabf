/** What the worker says about its own diff; a map of where to look, never a verdict. */
import { z } from "zod";
import { Priority } from "./review_result.ts";

export const SelfReview = z.object({
  schemaVersion: z.literal(1).describe("Always 1"),
  runId: z.string().describe("The run whose diff this digests"),
  diffSha256: z.string().describe("The diff digested; a digest of another diff is discarded"),
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
  ).min(1).describe("Per acceptance criterion: met, uncertain or unmet, and where to look"),
  findings: z.array(
    z.object({
      priority: Priority,
      file: z.string(),
      line: z.number().int().min(1).nullable(),
      problem: z.string(),
      requiredChange: z.string(),
    }).strict(),
  ).describe("Problems the worker sees in its own diff"),
  uncertainCriteria: z.array(z.string()).describe("Criteria the worker could not show are met"),
  summary: z.string().describe("The digest in a few sentences"),
}).strict().describe("What the worker says about its own diff: a map of where to look, never a verdict");
export type SelfReview = z.infer<typeof SelfReview>;
