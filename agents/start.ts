/**
 * `spot agent start NAME (--task FILE | --brief FILE|TEXT)`: reserve the
 * name and a run id, start spot's run driver detached, and return at once.
 * What can be checked cheaply (the name, a live agent of that name, the
 * contract, the brief's repository) is refused here; the rest (prepare,
 * the worker) happens in the driver and shows in `poll`.
 */
import { lazy } from "../base/lazy.ts";
import { resolve } from "../base/path.ts";
import { generateRunId } from "../config/contract_resolve.ts";
import { readContract } from "../config/contract_load.ts";
import { SpotError } from "../errors.ts";
import { toplevel } from "../git/repo.ts";
import { requireStatus } from "../lifecycle/state_table.ts";
import type { SpotContext } from "../store/context.ts";
import { writeJsonAtomic } from "../store/files.ts";
import { readBrief } from "./brief.ts";
import { startDriver } from "./launch.ts";
import { PER_TURN_FILES, refuseLive } from "./live.ts";
import { agentDir, agentFile, type AgentKind, type AgentLaunch, checkName, writeRecord } from "./registry.ts";

export interface StartOptions {
  task?: string;
  brief?: string;
  /** An existing prepared run (`spot run --detach`). */
  runId?: string;
  profile?: string;
  model?: string;
  cwd?: string;
  sandbox?: string;
  /** Re-dispatch the walled agent of this name (its brief, its run, the next profile or --profile). */
  redispatchOf?: string;
}

/** A started agent: its name, its run, the driver's process id and the run's directory. */
export interface StartResult {
  /** The agent's name. */
  name: string;
  /** The run it drives. */
  runId: string;
  /** The driver's process id. */
  pid: number;
  /** The run's directory. */
  runDir: string;
}

async function reserveRun(ctx: SpotContext, kind: AgentKind, o: StartOptions, cwd: string): Promise<string> {
  if (kind === "run") {
    requireStatus(await ctx.store.load(o.runId!), ["prepared"], "run");
    return o.runId!;
  }
  if (kind === "brief") {
    await toplevel(cwd); // a brief runs in a worktree of the repository at --cwd
    return generateRunId(ctx.now());
  }
  const task = await readContract(resolve(cwd, o.task!), ctx.config);
  return task.runId ?? generateRunId(ctx.now());
}

function kindOf(o: StartOptions): AgentKind {
  const given = [o.task, o.brief, o.runId].filter((v) => v !== undefined).length;
  if (given !== 1) {
    throw new SpotError(
      "CLI_USAGE",
      "Cannot start an agent: give exactly one of --task FILE or --brief FILE|TEXT",
    );
  }
  return o.task !== undefined ? "task" : o.brief !== undefined ? "brief" : "run";
}

/** Where a run an earlier turn used stands now: later turns read only what comes after. */
async function runMarks(
  ctx: SpotContext,
  runId: string,
): Promise<{ eventsFrom: number; streamFrom: number }> {
  const events = await ctx.store.events(runId).catch(() => []);
  const stream = await Deno.stat(ctx.store.file(runId, "worker-stream.jsonl")).catch(() => null);
  return { eventsFrom: events.length, streamFrom: stream?.size ?? 0 };
}

/** `--redispatch-of OLD`: the walled agent's brief, run again in its run on another profile. */
async function redispatchLaunch(
  ctx: SpotContext,
  name: string,
  options: StartOptions,
): Promise<{ launch: AgentLaunch; marks: { eventsFrom: number; streamFrom: number } }> {
  if ([options.task, options.brief, options.runId, options.model].some((v) => v !== undefined)) {
    throw new SpotError(
      "CLI_USAGE",
      "Cannot start a re-dispatch with --task, --brief or --model: it runs the walled agent's own brief",
    );
  }
  const old = options.redispatchOf!;
  const { redispatchRun } = await lazy<typeof import("./redispatch.ts")>("./redispatch.ts", import.meta.url);
  const r = await redispatchRun(ctx, old, options.profile);
  if (r.launch.kind === "brief" && name !== old) {
    await Deno.mkdir(agentDir(ctx.paths, name), { recursive: true, mode: 0o700 });
    await Deno.copyFile(agentFile(ctx.paths, old, "brief.md"), agentFile(ctx.paths, name, "brief.md"));
  }
  const { resume: _resume, eventsFrom: _from, model: _model, ...rest } = r.launch;
  const marks = await runMarks(ctx, r.runId);
  return {
    launch: { ...rest, name, profile: r.profile, redispatchOf: old, eventsFrom: marks.eventsFrom },
    marks,
  };
}

async function freshLaunch(ctx: SpotContext, name: string, options: StartOptions): Promise<AgentLaunch> {
  const kind = kindOf(options);
  const cwd = resolve(ctx.cwd, options.cwd ?? ".");
  const runId = await reserveRun(ctx, kind, options, cwd);
  if (kind === "brief") {
    await Deno.mkdir(agentDir(ctx.paths, name), { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(
      agentFile(ctx.paths, name, "brief.md"),
      await readBrief(options.brief!, (p) => resolve(cwd, p)),
    );
  }
  return {
    name,
    kind,
    runId,
    cwd,
    ...(options.task ? { taskFile: resolve(cwd, options.task) } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  };
}

export async function startAgent(
  ctx: SpotContext,
  name: string,
  options: StartOptions,
): Promise<StartResult> {
  checkName(name);
  const earlier = await refuseLive(ctx, name, "start");
  const fresh = options.redispatchOf === undefined;
  const { launch, marks } = fresh
    ? { launch: await freshLaunch(ctx, name, options), marks: null }
    : await redispatchLaunch(ctx, name, options);
  const runId = launch.runId;
  const previousRuns = earlier
    ? [...earlier.previousRuns, earlier.runId].filter((r) => r && r !== runId)
    : [];
  await Deno.mkdir(agentDir(ctx.paths, name), { recursive: true, mode: 0o700 });
  for (const file of PER_TURN_FILES) await Deno.remove(agentFile(ctx.paths, name, file)).catch(() => {});
  await writeJsonAtomic(agentFile(ctx.paths, name, "launch.json"), launch);
  const started = startDriver(name, { cwd: launch.cwd, env: Deno.env.toObject() });
  if ("error" in started) {
    throw new SpotError("STEP_FAILED", `Cannot start agent "${name}": ${started.error}`, {
      details: { name },
    });
  }
  await writeRecord(ctx.paths, {
    schemaVersion: 1,
    name,
    runId,
    kind: launch.kind,
    attempt: previousRuns.length + 1,
    startedAt: new Date().toISOString(),
    pid: started.pid,
    procStart: started.procStart,
    ...(launch.redispatchOf ? { redispatchOf: launch.redispatchOf } : {}),
    previousRuns,
    ...(marks ?? {}),
  });
  if (launch.redispatchOf) {
    await ctx.store.event(runId, { type: "agent", name, state: "redispatched", line: launch.profile });
  }
  return { name, runId, pid: started.pid, runDir: ctx.store.dir(runId) };
}
