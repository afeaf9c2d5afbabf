/** Reads the parent's review file, checked against the review-result schema. */
import { resolve } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { lazy } from "../base/lazy.ts";
import { formatIssuesOf, parseJsonWithSchema, strictJson } from "../schemas/parse_json.ts";
import { plainReview } from "../schemas/fast/review.ts";
import type { ReviewResult } from "../schemas/review_result.ts";

export async function readReview(cwd: string, file: string): Promise<ReviewResult> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new SpotError("REVIEW_INVALID", `Cannot read review "${path}": ${(error as Error).message}`);
  }
  // A plainly valid review needs no zod; anything else is read by the schema, which says what is wrong.
  const fast = strictJson(text);
  const plain = fast ? plainReview(fast.value) : null;
  if (plain) return plain;
  const { ReviewResult: schema } = await lazy<typeof import("../schemas/review_result.ts")>(
    "../schemas/review_result.ts",
    import.meta.url,
  );
  const parsed = await parseJsonWithSchema(text, schema);
  if (!parsed.ok) {
    throw new SpotError(
      "REVIEW_INVALID",
      `Cannot accept review "${path}": ${parsed.issues.length} problem(s)\n${await formatIssuesOf(
        path,
        parsed.issues,
      )}`,
      {
        details: { file: path, issues: parsed.issues },
      },
    );
  }
  return parsed.value;
}

/**
 * Refuses a review that names another diff than the verified one, which has not moved: the review is what is
 * wrong, so the error says so and gives the hash to review (REVIEW_INVALID, nothing changed).
 */
export function requireReviewedHash(
  review: Pick<ReviewResult, "diffSha256">,
  at: { command: string; runId: string; verified: string },
): void {
  if (review.diffSha256 === at.verified) return;
  const short = (sha: string) => sha.slice(0, 12);
  throw new SpotError(
    "REVIEW_INVALID",
    `Cannot ${at.command} run "${at.runId}": the review names diff ${
      short(review.diffSha256)
    }, but the verified ` +
      `diff is ${
        short(at.verified)
      } (unchanged since verify): read it (spot diff --id ${at.runId}) and set ` +
      `"diffSha256": "${at.verified}" in the review`,
    {
      details: {
        runId: at.runId,
        reviewed: review.diffSha256,
        diffSha256: at.verified,
        fix: `"diffSha256": "${at.verified}"`,
      },
    },
  );
}
