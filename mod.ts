/**
 * spot: delegate bounded coding tasks to cheap worker CLIs, then verify, review and integrate the result
 * yourself. This module is the library behind the `spot` CLI: the closed loop as functions (each takes one
 * options object and returns what the CLI prints as JSON), the task contract and review types with their
 * checks, the event union, and the error type with its stable codes.
 *
 * @example The closed loop with the built-in replay worker (no credentials needed)
 * ```ts ignore
 * import { approve, integrate, prepare, report, run, verify } from "@spot/spot";
 *
 * const { runId } = await prepare({ task: "task.json", profile: "replay", model: "episode.jsonl" });
 * await run({ runId });
 * const { passed, diffSha256 } = await verify({ runId });
 * if (passed) {
 *   // review.json: { schemaVersion: 1, verdict: "approve", diffSha256, findings: [], ... }
 *   await approve({ runId, review: "review.json", message: "Fix add()" });
 *   await integrate({ runId });
 *   console.log((await report({ runId })).headline);
 * }
 * ```
 *
 * @module
 */
export {
  approve,
  type ApproveInput,
  type ApproveResult,
  cleanup,
  type CleanupResult,
  discard,
  type DiscardResult,
  integrate,
  type IntegrateResult,
  prepare,
  type PrepareInput,
  type PrepareResult,
  report,
  type ReportInput,
  type ReportResult,
  type ReviewInput,
  revise,
  type ReviseResult,
  run,
  type RunResult,
  type RunTarget,
  selfReview,
  type SelfReviewResult,
  type SpotOptions,
  verify,
  type VerifyResult,
} from "./api/loop.ts";
export { checkReviewResult, checkTaskContract } from "./api/check.ts";
export type { Reclaimed } from "./store/ledger.ts";
export type {
  Config,
  ReviewResult,
  ReviewResultInput,
  SelfReview,
  SpotEvent,
  TaskContract,
  TaskContractInput,
} from "./schemas/gen/mod.ts";
export { ERROR_CODES, type ErrorCode, isSpotError, SpotError, type SpotErrorOptions } from "./errors.ts";
export type { CohortSummary } from "./verbs/report.ts";
export type { Recommendation } from "./usage/cohort.ts";
export type { MoneyFigures, ParentSavings } from "./usage/savings.ts";
export type { ReviewTier } from "./review/tiers.ts";
export type {
  DependencyDir,
  DependencyRecord,
  DependencySource,
  EcosystemPlan,
  SetupRecord,
} from "./schemas/dependency_record.ts";
