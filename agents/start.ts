/**
 * `spot agent start NAME (--task FILE | --brief FILE|TEXT)`: reserve the
 * name and a run id, start spot's run driver detached, and return at once.
 * What can be checked cheaply (the name, a live agent of that name, the
 * contract, the brief's repository) is refused here; the rest (prepare,
 * the worker) happens in the driver and shows in `poll`.
 */
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
  redispatchOf?: string;
  resume?: AgentLaunch["resume"];
}

export interface StartResult {
  name: string;
  runId: string;
  pid: number;
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

export async function startAgent(
  ctx: SpotContext,
  name: string,
  options: StartOptions,
): Promise<StartResult> {
  checkName(name);
  const kind = kindOf(options);
  const cwd = resolve(ctx.cwd, options.cwd ?? ".");
  const earlier = await refuseLive(ctx, name, "start");
  const previousRuns = earlier ? [...earlier.previousRuns, earlier.runId].filter((r) => r) : [];
  const runId = await reserveRun(ctx, kind, options, cwd);
  const dir = agentDir(ctx.paths, name);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  for (const file of PER_TURN_FILES) await Deno.remove(agentFile(ctx.paths, name, file)).catch(() => {});
  if (kind === "brief") {
    await Deno.writeTextFile(
      agentFile(ctx.paths, name, "brief.md"),
      await readBrief(options.brief!, (p) => resolve(cwd, p)),
    );
  }
  const launch: AgentLaunch = {
    name,
    kind,
    runId,
    cwd,
    ...(options.task ? { taskFile: resolve(cwd, options.task) } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.resume ? { resume: options.resume } : {}),
    ...(options.redispatchOf ? { redispatchOf: options.redispatchOf } : {}),
  };
  await writeJsonAtomic(agentFile(ctx.paths, name, "launch.json"), launch);
  const started = startDriver(name, { cwd, env: Deno.env.toObject() });
  if ("error" in started) {
    throw new SpotError("STEP_FAILED", `Cannot start agent "${name}": ${started.error}`, {
      details: { name },
    });
  }
  await writeRecord(ctx.paths, {
    schemaVersion: 1,
    name,
    runId,
    kind,
    attempt: previousRuns.length + 1,
    startedAt: new Date().toISOString(),
    pid: started.pid,
    procStart: started.procStart,
    ...(options.redispatchOf ? { redispatchOf: options.redispatchOf } : {}),
    previousRuns,
  });
  return { name, runId, pid: started.pid, runDir: ctx.store.dir(runId) };
}
