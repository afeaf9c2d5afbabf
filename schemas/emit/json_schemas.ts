/** The JSON Schema files spot ships, generated from the zod schemas. */
import { z } from "zod";
import { Config } from "../config.ts";
import { SpotEvent } from "../events.ts";
import { ReviewResult } from "../review_result.ts";
import { SelfReview } from "../self_review.ts";
import { TaskContract } from "../task_contract.ts";
import { Job } from "../job/job.ts";
import { JobTask } from "../job/task.ts";
import { TaskResult } from "../job/result.ts";

const SOURCES: Record<string, z.ZodType> = {
  "task-contract.schema.json": TaskContract,
  "review-result.schema.json": ReviewResult,
  "self-review.schema.json": SelfReview,
  "config.schema.json": Config,
  "event.schema.json": SpotEvent,
  // schemas/ is at its file limit: the job's schemas live with their zod sources.
  "job/job.schema.json": Job,
  "job/job-task.schema.json": JobTask,
  "job/job-result.schema.json": TaskResult,
};

/** File name → JSON text, exactly as committed under schemas/. */
export function renderJsonSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, schema] of Object.entries(SOURCES)) {
    const json = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" });
    out[name] = JSON.stringify({ $id: `https://spot.invalid/schemas/${name}`, ...json }, null, 2) + "\n";
  }
  return out;
}

/**
 * The schemas a parent writes against, shipped beside the skill (skill/schemas/, flat): the skill's file name →
 * the file under schemas/ it is a copy of.
 */
export const SKILL_SCHEMAS: Readonly<Record<string, string>> = {
  "task-contract.schema.json": "task-contract.schema.json",
  "review-result.schema.json": "review-result.schema.json",
  "self-review.schema.json": "self-review.schema.json",
  "job.schema.json": "job/job.schema.json",
  "job-task.schema.json": "job/job-task.schema.json",
};
