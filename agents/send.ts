/**
 * `spot agent send NAME TEXT|FILE`: a follow-up turn. The agent's worker
 * resumes its own session with the new message, in a new attempt of the
 * same run (same worktree, same run directory), driven detached like the
 * first turn. Refused while the agent runs, for a worker whose CLI cannot
 * resume a session (CAPABILITY_MISMATCH), and for a run that has moved on.
 */
import { resolve } from "../base/path.ts";
import { sessionSupport } from "../adapters/capabilities/sessions.ts";
import { SpotError } from "../errors.ts";
import { requireStatus } from "../lifecycle/state_table.ts";
import { withSlotFor } from "../lifecycle/admit.ts";
import type { SpotContext } from "../store/context.ts";
import { writeJsonAtomic } from "../store/files.ts";
import { readBrief } from "./brief.ts";
import { startDriver } from "./launch.ts";
import { PER_TURN_FILES, refuseLive } from "./live.ts";
import { agentFile, checkName, readLaunch, requireRecord, writeRecord } from "./registry.ts";

export interface SendResult {
  name: string;
  runId: string;
  pid: number;
  runDir: string;
  /** The worker's session the turn resumes. */
  sessionId: string;
  /** 2 for the first follow-up. */
  turn: number;
}

async function sizeOf(path: string): Promise<number> {
  return await Deno.stat(path).then((i) => i.size, () => 0);
}

export async function sendAgent(ctx: SpotContext, name: string, message: string): Promise<SendResult> {
  checkName(name);
  await requireRecord(ctx.paths, name);
  const record = await refuseLive(ctx, name, "send to");
  const launch = await readLaunch(ctx.paths, name);
  if (!record?.runId || !launch) {
    throw new SpotError("AGENT_NOT_FOUND", `Cannot send to agent "${name}": its handle is broken`, {
      details: { name, nextCommand: `spot agent stop ${name}` },
    });
  }
  const runId = record.runId;
  const state = await ctx.store.load(runId);
  const support = sessionSupport(state.adapter);
  if (!support.resumes) {
    throw new SpotError(
      "CAPABILITY_MISMATCH",
      `Cannot send to agent "${name}": its ${state.adapter} worker cannot resume a session (${support.why})`,
      { details: { name, adapter: state.adapter, hint: "start a new agent with the whole brief instead" } },
    );
  }
  requireStatus(state, ["verifying", "succeeded"], "send a follow-up turn to");
  if (state.cleanedAt) {
    throw new SpotError(
      "STATE_INVALID",
      `Cannot send to agent "${name}": its run's worktree was removed (${state.cleanedAt})`,
      { details: { name, runId, hint: "start a new agent with the whole brief instead" } },
    );
  }
  // A finished brief holds no run slot; its follow-up turn needs one (the driver takes it, under the cap).
  await withSlotFor(ctx, state, "running", () => Promise.resolve());
  const events = await ctx.store.events(runId);
  let sessionId: string | undefined;
  for (const e of events) if (e.type === "worker_start" && e.sessionId) sessionId = e.sessionId;
  if (!sessionId) {
    throw new SpotError(
      "STATE_INVALID",
      `Cannot send to agent "${name}": its worker never reported a session to resume`,
      { details: { name, runId } },
    );
  }
  const turn = (launch.resume?.turn ?? 1) + 1;
  const messageFile = agentFile(ctx.paths, name, `send-${turn}.md`);
  await Deno.writeTextFile(messageFile, await readBrief(message, (p) => resolve(ctx.cwd, p)), {
    mode: 0o600,
  });
  for (const file of PER_TURN_FILES) await Deno.remove(agentFile(ctx.paths, name, file)).catch(() => {});
  const eventsFrom = events.length;
  const streamFrom = await sizeOf(ctx.store.file(runId, "worker-stream.jsonl"));
  await writeJsonAtomic(agentFile(ctx.paths, name, "launch.json"), {
    ...launch,
    resume: { runId, sessionId, turn, messageFile },
    eventsFrom,
  });
  const started = startDriver(name, { cwd: launch.cwd, env: Deno.env.toObject() });
  if ("error" in started) {
    throw new SpotError("STEP_FAILED", `Cannot send to agent "${name}": ${started.error}`, {
      details: { name },
    });
  }
  await writeRecord(ctx.paths, {
    ...record,
    attempt: record.attempt + 1,
    startedAt: new Date().toISOString(),
    pid: started.pid,
    procStart: started.procStart,
    eventsFrom,
    streamFrom,
  });
  await ctx.store.event(runId, { type: "agent", name, state: "sent" });
  return { name, runId, pid: started.pid, runDir: ctx.store.dir(runId), sessionId, turn };
}
