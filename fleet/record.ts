/**
 * The run record an executor publishes with its result: the executor's run state and the run files the origin's
 * run takes over (its events, steps, verification, diff, review guide, self-review, network logs), as text.
 * The origin reads nothing else from the executor's machine.
 */
import { z } from "zod";
import { type RunState, Status } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";

export const RECORD_FILES = [
  "events.jsonl",
  "steps.jsonl",
  "worker-stream.jsonl",
  "verification.json",
  "diff.patch",
  "review-guide.json",
  "self-review.json",
  "forwarder.jsonl",
  "worker-egress.jsonl",
  "worker-web.jsonl",
  "setup-egress.jsonl",
] as const;
export type RecordFile = typeof RECORD_FILES[number];

const Sha = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/);

export const RunRecord = z.object({
  schemaVersion: z.literal(1),
  taskId: z.string(),
  attempt: z.number().int().min(1),
  executor: z.string(),
  host: z.string(),
  /** The executor's own id for the run (its files name it). */
  runId: z.string(),
  /** The commit the worker started from, and the transport commit of the tree it left (absent: no turn ran). */
  base: Sha,
  commit: Sha.optional(),
  tree: Sha.optional(),
  state: z.record(z.string(), z.unknown()),
  files: z.partialRecord(z.enum(RECORD_FILES), z.string()),
  at: z.string(),
}).strict();
export type RunRecord = Omit<z.infer<typeof RunRecord>, "state"> & { state: RunState };

/** The record of an executor's run, its files read from its run directory. */
export async function collectRecord(
  ctx: SpotContext,
  runId: string,
  head: Omit<RunRecord, "state" | "files" | "runId" | "at">,
): Promise<RunRecord> {
  const state = await ctx.store.load(runId);
  const files: Partial<Record<RecordFile, string>> = {};
  for (const name of RECORD_FILES) {
    const text = await Deno.readTextFile(ctx.store.file(runId, name)).catch(() => null);
    if (text !== null) files[name] = text;
  }
  return { ...head, runId, state, files, at: ctx.now() };
}

/** A record read back on the origin: shaped as written, or an error saying what is wrong. */
export function parseRecord(text: string): RunRecord {
  const record = RunRecord.parse(JSON.parse(text));
  // The origin moves its run to the executor's end state: that much must be one spot knows.
  Status.parse(record.state.status);
  return record as unknown as RunRecord;
}
