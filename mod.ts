/**
 * spot: delegate bounded coding tasks to cheap worker CLIs, then verify, review and integrate the result
 * yourself. This module is the library behind the `spot` CLI: every verb of spot's verb table as a function
 * of one options object (the CLI's options by name, plus where spot reads its settings), returning what the
 * CLI prints as JSON; the task contract and review types with their checks; the event union; and the error
 * type with its stable codes.
 *
 * @example The closed loop with the built-in replay worker (no credentials needed)
 * ```ts ignore
 * import { approve, integrate, prepare, report, run, verify } from "@spot/spot";
 *
 * const { runId } = await prepare({ task: "task.json", profile: "replay", model: "episode.jsonl" });
 * await run({ runId });
 * const { passed, diffSha256 } = await verify({ runId });
 * if (passed) {
 *   const review = { schemaVersion: 1, verdict: "approve", diffSha256, findings: [], verificationGaps: [] } as const;
 *   await approve({ runId, review, message: "Fix add()" });
 *   await integrate({ runId });
 *   console.log((await report({ runId })).headline);
 * }
 * ```
 *
 * @module
 */
export * from "./api/gen/loop.ts";
export * from "./api/gen/runs.ts";
export * from "./api/gen/host.ts";
export * from "./api/gen/agent.ts";
export * from "./api/gen/job.ts";
export * from "./api/gen/fleet.ts";
export type { JsonObject, SpotOptions } from "./api/call.ts";
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
export type {
  ApproveResult,
  CleanupResult,
  IntegrateResult,
  PrepareResult,
  RecoverResult,
  ReportResult,
  ReviseResult,
  RunResult,
  SelfReviewResult,
  VerifyResult,
} from "./verbs/mod.ts";
export type { CohortSummary } from "./verbs/report.ts";
export type { FleetRunResult } from "./fleet/remote_run.ts";
export type { ExecutorList } from "./fleet/ls.ts";
export type { ExecutorSeen } from "./queue/item.ts";
export type { DiscardResult } from "./lifecycle/discard.ts";
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
