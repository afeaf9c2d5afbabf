/** Reads the parent's review file, checked against the review-result schema. */
import { resolve } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { formatIssuesOf, parseJsonWithSchema } from "../schemas/parse_json.ts";
import { ReviewResult } from "../schemas/review_result.ts";

export async function readReview(cwd: string, file: string): Promise<ReviewResult> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new SpotError("REVIEW_INVALID", `Cannot read review "${path}": ${(error as Error).message}`);
  }
  const parsed = await parseJsonWithSchema(text, ReviewResult);
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
