/**
 * What poll and peek see of an agent, read from disk without changing it:
 * its handle and exit marker in the registry, whether its driver still
 * runs, and its run's events, raw stream and state in the run store.
 */
import { modelLabel } from "../usage/format.ts";
import { classify } from "../adapters/streams/classify.ts";
import type { SpotEvent } from "../schemas/events.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { readJsonFile } from "../store/files.ts";
import { processAlive } from "../sandbox/spawn.ts";
import { parseStat } from "../worker/process_tree.ts";
import type { PollFacts, Wall } from "./decide.ts";
import { agentFile, type AgentRecord, readRecord } from "./registry.ts";

export interface Observed {
  record: AgentRecord | null;
  facts: PollFacts;
  events: SpotEvent[];
}

async function readText(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

async function statOf(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch {
    return null;
  }
}

/**
 * The driver is alive, and is the process that was started (a reused pid has another start time). Only
 * its own /proc entry is read: a watch asks this of every agent on every sweep.
 */
export function driverAlive(record: AgentRecord): boolean {
  if (record.pid === null || !processAlive(record.pid)) return false;
  if (record.procStart === null) return true;
  let me: ReturnType<typeof parseStat> = null;
  try {
    me = parseStat(Deno.readTextFileSync(`/proc/${record.pid}/stat`));
  } catch {
    return true; // no /proc here: the signal check is all there is
  }
  return me === null || me.start === record.procStart;
}

const WALLS: Record<string, Wall> = { quota: "QUOTA", quota_window: "QUOTA-WINDOW" };

/** The first provider wall in the worker's errors and retries, before the CLI's own retries go on. */
export function firstWall(events: SpotEvent[]): { tag: Wall; message: string } | null {
  for (const e of events) {
    if (e.type !== "worker_error" && e.type !== "worker_retry") continue;
    const tag = WALLS[classify(e.message).code];
    if (tag) return { tag, message: e.message };
  }
  return null;
}

function toolRunning(events: SpotEvent[]): boolean {
  let open = 0;
  for (const e of events) {
    if (e.type === "worker_tool_call") open++;
    if (e.type === "worker_tool_result") open = Math.max(0, open - 1);
  }
  return open > 0;
}

function modelOf(state: RunState | null): string {
  return state ? modelLabel(state) : "-";
}

export async function observe(
  ctx: Pick<SpotContext, "paths" | "store">,
  name: string,
  now = Date.now(),
): Promise<Observed> {
  const record = await readRecord(ctx.paths, name);
  const persisted = (await readText(agentFile(ctx.paths, name, "status")))?.trim() || null;
  const rcPath = agentFile(ctx.paths, name, "rc");
  const rcText = await readText(rcPath);
  const rcInfo = rcText !== null ? await statOf(rcPath) : null;
  const driverError = await readJsonFile<{ message?: string }>(agentFile(ctx.paths, name, "error.json"))
    .catch(() => null);
  const runId = record?.runId || null;
  // A follow-up or a re-dispatch reuses a run: only this turn's events and stream count.
  const all = runId ? await ctx.store.events(runId).catch(() => [] as SpotEvent[]) : [];
  const events = all.slice(record?.eventsFrom ?? 0);
  const state = runId
    ? await readJsonFile<RunState>(ctx.store.file(runId, "state.json")).catch(() => null)
    : null;
  const stream = runId ? await statOf(ctx.store.file(runId, "worker-stream.jsonl")) : null;
  const log = runId ? await statOf(ctx.store.file(runId, "events.jsonl")) : null;
  const times = [stream?.mtime, log?.mtime].filter((d): d is Date => d instanceof Date).map((d) =>
    d.getTime()
  );
  const result = events.findLast((e) => e.type === "worker_result");
  const usage = events.filter((e) => e.type === "worker_usage");
  const firstError = events.find((e) => e.type === "worker_error");
  const startedAt = record ? Date.parse(record.startedAt) : NaN;
  const facts: PollFacts = {
    now,
    persisted,
    handle: record && Number.isFinite(startedAt) ? { pid: record.pid, startedAt } : null,
    alive: record ? driverAlive(record) : false,
    rc: rcText !== null && /^\d+$/.test(rcText.trim()) ? Number(rcText.trim()) : null,
    endedAt: rcInfo?.mtime?.getTime() ?? null,
    output: runId ? ctx.store.file(runId, "result.md") : "-",
    streamBytes: Math.max(0, (stream?.size ?? 0) - (record?.streamFrom ?? 0)),
    lastActivity: times.length > 0 ? Math.max(...times) : null,
    result: result
      ? { ok: result.ok, stopReason: result.stopReason, text: result.text, at: Date.parse(result.at) }
      : null,
    toolRunning: toolRunning(events),
    wall: firstWall(events),
    cause: firstError?.message ?? driverError?.message ?? state?.failure?.message ?? null,
    meta: {
      model: modelOf(state),
      costUsd: usage.reduce((sum, e) => sum + (e.costUsd ?? 0), 0),
      turns: usage.length,
    },
  };
  return { record, facts, events };
}
