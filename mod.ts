/**
 * spot: delegate bounded coding tasks to cheap worker CLIs, then verify,
 * review and integrate the result yourself. This module is the library behind
 * the `spot` CLI; every verb is a function of a {@link SpotContext}.
 *
 * @example Run the loop on a prepared contract with the built-in replay worker
 * ```ts
 * import { createContext, prepare, runWorker, verifyRun } from "./mod.ts";
 *
 * const ctx = await createContext();
 * const { runId } = await prepare(ctx, { taskFile: "task.json", profile: "replay", model: "episode.jsonl" });
 * await runWorker(ctx, runId);
 * const { passed, diffSha256 } = await verifyRun(ctx, runId);
 * console.log(passed, diffSha256);
 * ```
 *
 * @module
 */
export * from "./errors.ts";
export * from "./verbs/mod.ts";
export * from "./config/context.ts";
export * from "./store/context.ts";
export * from "./store/paths.ts";
export * from "./store/run_store.ts";
export * from "./lifecycle/state_table.ts";
export * from "./lifecycle/audit.ts";
export * from "./adapters/mod.ts";
export * from "./sandbox/mod.ts";
export * from "./git/mod.ts";
export { TaskContract } from "./schemas/task_contract.ts";
export type { ResolvedContract, TaskContractInput } from "./schemas/task_contract.ts";
export { ReviewResult } from "./schemas/review_result.ts";
export { SelfReview } from "./schemas/self_review.ts";
export { Config, Profile } from "./schemas/config.ts";
export { SpotEvent, Usage, WorkerEvent } from "./schemas/events.ts";
export type { RunState, Status } from "./schemas/run_state.ts";
