/**
 * `spot agent stop NAME`: end the agent's processes, end the turn they cut short, log it, and unregister the
 * name; repeating it is harmless. A run whose turn was stopped (prepared, running, revising) ends `failed`
 * with AGENT_STOPPED, its worktree kept; a brief whose turn had ended ends `succeeded`; a contract's run whose
 * turn had ended stays where it is, for the parent's `spot verify` (or `spot discard`).
 */
import { isSpotError } from "../errors.ts";
import { finishEmptyRun, moveRun } from "../lifecycle/move.ts";
import { cutShort } from "../lifecycle/slots.ts";
import type { SpotContext } from "../store/context.ts";
import type { RunLock } from "../store/run_store.ts";
import { observe } from "./observe.ts";
import { type AgentRecord, checkName, readRecord, unregister } from "./registry.ts";
import { stopAgent } from "./stop.ts";

export interface StopVerbResult {
  name: string;
  runId: string | null;
  /** The driver's process group that was signalled, or null when nothing ran. */
  pgid: number | null;
  /** Groups that outlived SIGTERM and got SIGKILL. */
  killed: number[];
  unregistered: boolean;
  /** The run's status afterwards (null without a run), and whether the stop ended it. */
  runStatus: string | null;
  runEnded: boolean;
}

/** How long a stopped driver's run lock may take to come free (the kernel frees it as the driver dies). */
const LOCK_WAIT_MS = 5_000;

async function lockWhenFree(ctx: SpotContext, runId: string): Promise<RunLock | null> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return await ctx.store.lock(runId);
    } catch (error) {
      if (!isSpotError(error, "RUN_LOCKED") || Date.now() >= deadline) return null;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Ends the run the stopped agent was driving, where its turn was cut short; returns its status and whether. */
async function endStoppedRun(
  ctx: SpotContext,
  record: AgentRecord,
): Promise<{ runStatus: string | null; runEnded: boolean }> {
  const state = await ctx.store.load(record.runId).catch(() => null);
  if (!state || state.origin) return { runStatus: state?.status ?? null, runEnded: false };
  const reclaimed = cutShort(state);
  const cut = state.status === "prepared" || state.status === "running" || state.status === "revising" ||
    reclaimed;
  const briefDone = record.kind === "brief" && state.status === "verifying";
  if (!cut && !briefDone) return { runStatus: state.status, runEnded: false };
  const lock = await lockWhenFree(ctx, record.runId);
  if (!lock) return { runStatus: state.status, runEnded: false };
  try {
    const now = await ctx.store.load(record.runId);
    if (briefDone && now.status === "verifying") {
      await finishEmptyRun(ctx, now, `agent "${record.name}" stopped after its brief's turn ended`);
      return { runStatus: "succeeded", runEnded: true };
    }
    const message = `agent "${record.name}" was stopped (spot agent stop) before its turn ended; ` +
      `its worktree is kept: spot discard --id ${record.runId} drops it`;
    const failure = { code: "AGENT_STOPPED", message, details: { name: record.name } };
    if (cutShort(now)) {
      // The driver recorded its interrupted turn, or another admission saw it killed first and reclaimed
      // the slot; the stop is the real cause.
      await ctx.store.save({ ...now, failure, updatedAt: ctx.now() });
      return { runStatus: "failed", runEnded: true };
    }
    if (now.status !== "prepared" && now.status !== "running" && now.status !== "revising") {
      return { runStatus: now.status, runEnded: false };
    }
    await moveRun(ctx, now, "failed", `AGENT_STOPPED: ${message}`, { failure });
    return { runStatus: "failed", runEnded: true };
  } finally {
    lock.release();
  }
}

export async function stopNamedAgent(ctx: SpotContext, name: string): Promise<StopVerbResult> {
  checkName(name);
  const record = await readRecord(ctx.paths, name);
  let stopped = { pgid: null as number | null, killed: [] as number[] };
  let ended = { runStatus: null as string | null, runEnded: false };
  if (record) {
    const o = await observe(ctx, name);
    stopped = await stopAgent(record, o.events, { graceMs: ctx.config.agents.stopGraceSeconds * 1000 });
    if (stopped.pgid !== null) {
      await ctx.store.event(record.runId, { type: "agent", name, state: "stopped" }).catch(() => {});
    }
    if (record.runId) ended = await endStoppedRun(ctx, record);
  }
  const unregistered = await unregister(ctx.paths, name);
  return { name, runId: record?.runId ?? null, ...stopped, unregistered, ...ended };
}
