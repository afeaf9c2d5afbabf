/**
 * The detached half of an agent (`spot agent drive NAME`, started by
 * `start`): prepare the run when the agent has no prepared run yet, then
 * run the worker's turn like `spot run`, with the brief as its prompt for a
 * brief. On the way out it leaves the exit marker (`rc`) and, when spot and
 * not the worker decided the end, the error (`error.json`). Like the seed's
 * worker, a turn that ended with the worker's own final message exits 0:
 * that message is the verdict, and poll judges it.
 */
import { isSpotError } from "../errors.ts";
import type { SpotContext } from "../store/context.ts";
import { writeJsonAtomic, writeTextAtomic } from "../store/files.ts";
import { prepare } from "../verbs/prepare.ts";
import { runWorker } from "../verbs/run.ts";
import { briefContract, briefPrompt } from "./brief.ts";
import { agentFile, type AgentLaunch, readLaunch } from "./registry.ts";
import { SpotError } from "../errors.ts";
import { finishEmptyRun } from "../lifecycle/move.ts";

export interface DriveResult {
  name: string;
  runId: string;
  rc: number;
}

async function prepared(ctx: SpotContext, launch: AgentLaunch): Promise<void> {
  // A prepared run, a follow-up turn and a re-dispatch all find their run ready.
  if (launch.kind === "run" || launch.resume || launch.redispatchOf) return;
  let taskFile = launch.taskFile!;
  if (launch.kind === "brief") {
    taskFile = agentFile(ctx.paths, launch.name, "task.json");
    await writeJsonAtomic(taskFile, briefContract(launch.name, launch.runId));
  }
  await prepare(ctx, {
    taskFile,
    runId: launch.runId,
    profile: launch.profile,
    model: launch.model,
    sandbox: launch.sandbox,
    owner: { kind: "agent", name: launch.name },
    // A detached driver has nobody to ask: the routed worker runs.
    selectWorker: false,
    selectModel: false,
  });
}

async function promptOf(ctx: SpotContext, launch: AgentLaunch): Promise<string | undefined> {
  if (launch.resume) return await Deno.readTextFile(launch.resume.messageFile);
  if (launch.kind !== "brief") return undefined;
  return briefPrompt(await Deno.readTextFile(agentFile(ctx.paths, launch.name, "brief.md")));
}

/** The exit code the marker records: 0 when the worker's final message decides, else spot's own code. */
async function exitCodeOf(ctx: SpotContext, launch: AgentLaunch, error: unknown): Promise<number> {
  if (!isSpotError(error, "WORKER_FAILED")) return isSpotError(error) ? error.exitCode : 1;
  const events = await ctx.store.events(launch.runId).catch(() => []);
  // Only this turn's final message: an earlier turn's is no verdict on this one.
  return events.slice(launch.eventsFrom ?? 0).some((e) => e.type === "worker_result") ? 0 : error.exitCode;
}

/**
 * A brief's turn that ended well ends its run `succeeded`: its answer is the worker's final message, it
 * names no checks and is never integrated, so it holds no run slot from here (`agent send` takes one again).
 */
async function finishBrief(ctx: SpotContext, runId: string, name: string): Promise<void> {
  const lock = await ctx.store.lock(runId);
  try {
    const state = await ctx.store.load(runId);
    if (state.status === "verifying") {
      await finishEmptyRun(ctx, state, `brief of agent "${name}" answered: its result is the final message`);
    }
  } finally {
    lock.release();
  }
}

export async function driveAgent(ctx: SpotContext, name: string): Promise<DriveResult> {
  const launch = await readLaunch(ctx.paths, name);
  if (!launch) {
    throw new SpotError("AGENT_NOT_FOUND", `Cannot drive agent "${name}": its launch.json is missing`);
  }
  let rc = 0;
  let failure: unknown = null;
  try {
    await prepared(ctx, launch);
    await ctx.store.event(launch.runId, { type: "agent", name, state: "started" });
    const followUp = launch.resume
      ? { label: `follow-up-${launch.resume.turn}`, resumeSession: launch.resume.sessionId }
      : undefined;
    await runWorker(ctx, launch.runId, {
      prompt: await promptOf(ctx, launch),
      followUp,
      owner: { kind: "agent", name },
    });
    if (launch.kind === "brief") await finishBrief(ctx, launch.runId, name);
  } catch (error) {
    failure = error;
    rc = await exitCodeOf(ctx, launch, error);
    const e = isSpotError(error)
      ? error
      : new SpotError("INTERNAL", String((error as Error)?.message ?? error));
    await writeJsonAtomic(agentFile(ctx.paths, name, "error.json"), e.toJSON());
  } finally {
    await writeTextAtomic(agentFile(ctx.paths, name, "rc"), `${rc}\n`);
  }
  if (failure && rc !== 0) throw failure;
  return { name, runId: launch.runId, rc };
}
