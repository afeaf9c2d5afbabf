/**
 * The one event union. A run's `events.jsonl`, the CLI's progress line,
 * `worker.log` and the dashboard's live feed are all views of it.
 */
import { z } from "zod";

export const Usage = z.object({
  /** Input tokens not served from a cache. */
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  cacheRead: z.number().int().nonnegative(),
  cacheWrite: z.number().int().nonnegative(),
}).strict();
export type Usage = z.infer<typeof Usage>;

export { addUsage, ZERO_USAGE } from "./usage_sum.ts";

export const Phase = z.enum(["run", "revise", "self-review"]);
export type Phase = z.infer<typeof Phase>;

const workerShapes = {
  worker_start: { sessionId: z.string().optional(), model: z.string().optional() },
  worker_text: { text: z.string() },
  worker_tool_call: { id: z.string(), name: z.string(), input: z.unknown() },
  worker_tool_result: {
    id: z.string(),
    name: z.string().optional(),
    ok: z.boolean(),
    output: z.string().optional(),
  },
  worker_usage: { usage: Usage, costUsd: z.number().optional(), credits: z.number().optional() },
  worker_retry: { attempt: z.number(), message: z.string() },
  worker_error: { message: z.string() },
  worker_result: { ok: z.boolean(), stopReason: z.string().optional(), text: z.string().optional() },
};

/** What a worker adapter makes of the CLI's stream, whatever the CLI. */
export const WorkerEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("worker_start"), ...workerShapes.worker_start }),
  z.object({ type: z.literal("worker_text"), ...workerShapes.worker_text }),
  z.object({ type: z.literal("worker_tool_call"), ...workerShapes.worker_tool_call }),
  z.object({ type: z.literal("worker_tool_result"), ...workerShapes.worker_tool_result }),
  z.object({ type: z.literal("worker_usage"), ...workerShapes.worker_usage }),
  z.object({ type: z.literal("worker_retry"), ...workerShapes.worker_retry }),
  z.object({ type: z.literal("worker_error"), ...workerShapes.worker_error }),
  z.object({ type: z.literal("worker_result"), ...workerShapes.worker_result }),
]);
export type WorkerEvent = z.infer<typeof WorkerEvent>;

const stamp = { at: z.string(), runId: z.string() };
const wstamp = { ...stamp, phase: Phase };

/** Everything that can happen to a run, in one tagged union. */
export const SpotEvent = z.discriminatedUnion("type", [
  z.object({ ...wstamp, type: z.literal("worker_start"), ...workerShapes.worker_start }),
  z.object({ ...wstamp, type: z.literal("worker_text"), ...workerShapes.worker_text }),
  z.object({ ...wstamp, type: z.literal("worker_tool_call"), ...workerShapes.worker_tool_call }),
  z.object({ ...wstamp, type: z.literal("worker_tool_result"), ...workerShapes.worker_tool_result }),
  z.object({ ...wstamp, type: z.literal("worker_usage"), ...workerShapes.worker_usage }),
  z.object({ ...wstamp, type: z.literal("worker_retry"), ...workerShapes.worker_retry }),
  z.object({ ...wstamp, type: z.literal("worker_error"), ...workerShapes.worker_error }),
  z.object({ ...wstamp, type: z.literal("worker_result"), ...workerShapes.worker_result }),
  /** spot adjusted a worker setting (a snapped effort, a resolved price alias) instead of failing. */
  z.object({ ...wstamp, type: z.literal("worker_warning"), message: z.string() }),
  z.object({
    ...stamp,
    type: z.literal("transition"),
    from: z.string().nullable(),
    to: z.string(),
    reason: z.string(),
  }),
  z.object({
    ...stamp,
    type: z.literal("step_start"),
    step: z.string(),
    stepId: z.string(),
    pid: z.number().optional(),
  }),
  z.object({
    ...stamp,
    type: z.literal("step_end"),
    step: z.string(),
    stepId: z.string(),
    exitCode: z.number().nullable(),
    signal: z.string().nullable(),
    timedOut: z.boolean(),
    durationMs: z.number(),
  }),
  z.object({
    ...stamp,
    type: z.literal("verify_command"),
    index: z.number(),
    argv: z.array(z.string()),
    passed: z.boolean(),
    exitCode: z.number().nullable(),
    timedOut: z.boolean(),
    durationMs: z.number(),
  }),
  z.object({ ...stamp, type: z.literal("verify_result"), passed: z.boolean(), diffSha256: z.string() }),
  z.object({ ...stamp, type: z.literal("note"), message: z.string() }),
  /**
   * A named agent (spot agent) started, settled on a status line, was stopped, sent a follow-up, or
   * re-dispatched after a provider wall (`line` then names the new profile).
   */
  z.object({
    ...stamp,
    type: z.literal("agent"),
    name: z.string(),
    state: z.enum(["started", "settled", "stopped", "sent", "redispatched"]),
    line: z.string().optional(),
  }),
  /**
   * The run's worker turn went to the fleet (docs/fleet.md): queued, claimed by an executor (each attempt),
   * an attempt's lease expired or it was given back, the result imported here or refused, the task failed or
   * was cancelled.
   */
  z.object({
    ...stamp,
    type: z.literal("fleet"),
    state: z.enum([
      "queued",
      "claimed",
      "lease-expired",
      "released",
      "imported",
      "refused",
      "failed",
      "cancelled",
    ]),
    taskId: z.string(),
    executor: z.string().optional(),
    attempt: z.number().optional(),
    message: z.string().optional(),
  }),
]).describe("One line of a run's events.jsonl: what spot and the worker did, in order");
export type SpotEvent = z.infer<typeof SpotEvent>;

/** Distributes Omit over the union so each member keeps its own fields. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the store stamps it with `at` and `runId`. */
export type SpotEventInput = DistributiveOmit<SpotEvent, "at" | "runId">;
