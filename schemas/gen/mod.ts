/** The generated public types (schemas/emit/gen_types.ts), in one place. */
export type { TaskContract, TaskContractInput } from "./task_contract.ts";
export type { ReviewResult, ReviewResultInput } from "./review_result.ts";
export type { SelfReview } from "./self_review.ts";
export type { Config } from "./config.ts";
export type { SpotEvent } from "./event.ts";
