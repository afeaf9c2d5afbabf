/**
 * The task contract and review checks `prepare` and `approve` run, for a caller that wants to know before it
 * calls them: the same schema, the same refusal of unknown and repeated keys, every problem as
 * `file:line:col path: message` in a SpotError.
 */
import { SpotError } from "../errors.ts";
import type { ReviewResult, TaskContract } from "../schemas/gen/mod.ts";
import { formatIssuesOf, parseJsonWithSchema } from "../schemas/parse_json.ts";
import { ReviewResult as ReviewSchema } from "../schemas/review_result.ts";
import { TaskContract as ContractSchema } from "../schemas/task_contract.ts";

async function check<T>(
  code: "CONTRACT_INVALID" | "REVIEW_INVALID",
  what: string,
  text: string,
  file: string,
  schema: typeof ContractSchema | typeof ReviewSchema,
): Promise<T> {
  const parsed = await parseJsonWithSchema(text, schema);
  if (parsed.ok) return parsed.value as T;
  const lines = await formatIssuesOf(file, parsed.issues);
  throw new SpotError(code, `Cannot accept ${what} "${file}": ${parsed.issues.length} problem(s)\n${lines}`, {
    details: { file, issues: parsed.issues },
  });
}

/**
 * Checks a task contract's JSON text and returns it with its defaults filled in; throws a SpotError
 * `CONTRACT_INVALID` naming each problem's line and column. `prepare` also checks the config's policy
 * (`verificationEnvAllowlist`), which this cannot know.
 *
 * @example
 * ```ts
 * import { checkTaskContract } from "@spot/spot";
 *
 * const contract = await checkTaskContract(JSON.stringify({
 *   schemaVersion: 1,
 *   goal: "Fix add() so that it returns the sum",
 *   allowedPaths: ["add.ts"],
 *   acceptanceCriteria: ["add(2, 3) returns 5"],
 *   verification: [{ argv: ["deno", "test"], timeoutSeconds: 120 }],
 *   risk: "low",
 * }));
 * console.log(contract.lockedPaths); // [] (filled in)
 * ```
 */
export function checkTaskContract(text: string, file = "task.json"): Promise<TaskContract> {
  return check<TaskContract>("CONTRACT_INVALID", "task contract", text, file, ContractSchema);
}

/**
 * Checks a review's JSON text (the parent's verdict on a run's diff); throws a SpotError `REVIEW_INVALID`
 * naming each problem's line and column. `approve` also checks that its `diffSha256` is the run's.
 *
 * @example
 * ```ts
 * import { checkReviewResult, isSpotError } from "@spot/spot";
 *
 * try {
 *   await checkReviewResult('{"schemaVersion": 1, "verdict": "maybe"}', "review.json");
 * } catch (error) {
 *   if (isSpotError(error, "REVIEW_INVALID")) console.log(error.message);
 * }
 * ```
 */
export function checkReviewResult(text: string, file = "review.json"): Promise<ReviewResult> {
  return check<ReviewResult>("REVIEW_INVALID", "review", text, file, ReviewSchema);
}
