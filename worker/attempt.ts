/**
 * One attempt at a worker turn: the launch planned by the adapter, wrapped in
 * the run's sandbox, run as the permission-scoped worker step, its stream
 * turned into events, and its outcome judged from that stream.
 */
import { dirname, isAbsolute, join, relative } from "../base/path.ts";
import { newParseState, type WorkerAdapter, type WorkerOutcome } from "../adapters/types.ts";
import { SpotError } from "../errors.ts";
import { denoDir, killProgram, runStarted, type StartedStep } from "../isolation/step_runner.ts";
import { type WorkerLaunch, workerSandbox } from "../isolation/worker_launch.ts";
import type { Phase } from "../schemas/events.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { Enforcement } from "../schemas/sandbox_record.ts";
import type { WorkerStepSpec } from "../steps/protocol.ts";
import type { SpotContext } from "../store/context.ts";
import { resolveAdapter, resolveWorkerBinary } from "./binary.ts";
import { type ExitMessage, failure, judgeTurn } from "./outcome.ts";
import { type ProcessWatch, watchProcesses } from "./process_watch.ts";
import { becomeSubreaper } from "./subreaper.ts";
import { startWorkerStep, workerStart } from "./step_start.ts";
import { copyHomeFiles, type HomeFiles, removeHomeFiles } from "./home.ts";
import { launchSettings } from "./settings.ts";
import { warmDenoPrograms } from "./deno_warm.ts";
import { budgetSpent, NO_SPEND, spend, type TurnBudget } from "./budget.ts";
import { unreachableMessage } from "../isolation/worker_network.ts";
import { workerActivity } from "../store/worker_log.ts";

/** Names from the user's environment every worker gets; nothing else leaks in. */
const BASE_ENV_NAMES = ["PATH", "LANG", "LC_ALL", "TZ", "TERM"];
/** The step outlives its worker's own timeout by this much, as a backstop. */
export const STEP_BACKSTOP_MS = 30_000;

export interface AttemptResult {
  outcome: WorkerOutcome;
  /** What the attempt's sandbox policy enforced; null without an OS sandbox or without a launch. */
  enforcement: Enforcement | null;
}

/** The turn's prompt, the label its files are named by, and the session it continues, if any. */
export interface TurnInput {
  file: string;
  text: string;
  label: string;
  resumeSession?: string;
  /** The turn may only read: under an OS sandbox its worktree is mounted read-only. */
  readOnly?: boolean;
  /** What the turn may spend before spot stops it (a job task's share). */
  budget?: TurnBudget;
  /** A job's research turn: the CLI's web tools, reaching only these hosts under the OS sandbox. */
  web?: { hosts: string[] };
  /** Files the worker may read besides its worktree, read-only (under the OS sandbox, nothing else of spot's). */
  attachments?: string[];
}

interface Clock {
  timeoutSeconds: number;
  idleSeconds: number;
}

/** A profile may need its own clock: a CLI that boots for 20 s needs a longer watchdog. */
function clockFor(ctx: SpotContext, state: RunState): Clock {
  const profile = ctx.config.profiles[state.profile];
  return {
    timeoutSeconds: profile?.limits?.workerTimeoutSeconds ?? ctx.config.limits.workerTimeoutSeconds,
    idleSeconds: profile?.limits?.workerIdleSeconds ?? ctx.config.limits.workerIdleSeconds,
  };
}

function baseEnv(ctx: SpotContext, state: RunState): Record<string, string> {
  const env: Record<string, string> = { ...state.workspaceEnv };
  for (const name of BASE_ENV_NAMES) {
    const value = ctx.env(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Writes the adapter's config files; each must land inside the run directory. */
async function writePlanFiles(
  adapter: WorkerAdapter,
  runDir: string,
  files: { path: string; content: string }[],
) {
  for (const file of files) {
    const rel = relative(runDir, file.path);
    if (!isAbsolute(file.path) || rel.startsWith("..")) {
      throw new SpotError(
        "INTERNAL",
        `Adapter "${adapter.name}" wants to write "${file.path}" outside the run directory`,
      );
    }
    await Deno.mkdir(dirname(file.path), { recursive: true });
    await Deno.writeTextFile(file.path, file.content, { mode: 0o600 });
  }
}

type Planned =
  | { ok: true; adapter: WorkerAdapter; launch: WorkerLaunch; spec: WorkerStepSpec; homeFiles: HomeFiles }
  | { ok: false; outcome: WorkerOutcome };

/** Everything before the worker starts: binary, key, private HOME, sandbox, the adapter's plan. */
async function planAttempt(
  ctx: SpotContext,
  state: RunState,
  phase: Phase,
  prompt: TurnInput,
  n: number,
): Promise<Planned> {
  const adapter = await resolveAdapter(state);
  const binary = resolveWorkerBinary(ctx, state, adapter);
  const fail = (outcome: WorkerOutcome): Planned => ({ ok: false, outcome });
  if (!binary) {
    return fail(failure("config", "blocking", `Cannot find the ${state.adapter} worker binary on PATH`));
  }
  const profile = ctx.config.profiles[state.profile];
  const apiKey = profile?.apiKeyEnv ? ctx.env(profile.apiKeyEnv) : undefined;
  if (profile?.apiKeyEnv && !apiKey) {
    return fail(
      failure("auth", "blocking", `Cannot start the worker: credential ${profile.apiKeyEnv} is not set`),
    );
  }
  const clock = clockFor(ctx, state);
  const runDir = ctx.store.dir(state.runId);
  const homeDir = join(runDir, "homes", `${prompt.label}-a${n}`);
  await Deno.mkdir(homeDir, { recursive: true, mode: 0o700 });
  // Only a CLI with web tools of its own gets the web channel; the others run the turn without them.
  const web = adapter.webTools?.length ? prompt.web : undefined;
  if (prompt.web && !web) {
    await ctx.store.event(state.runId, {
      type: "note",
      message:
        `The ${state.adapter} CLI has no web tools spot can give: the research turn runs without the web`,
    });
  }
  // Under an OS sandbox the network plan decides: the forwarder's URL and a placeholder key, or the proxy.
  const sandbox = await workerSandbox(ctx, state, {
    kind: phase === "self-review" ? "self-review" : "worker",
    readOnly: prompt.readOnly,
    binary,
    apiKey,
    profile: { ...profile, adapter: state.adapter, provider: state.provider },
    timeoutMs: clock.timeoutSeconds * 1000 + STEP_BACKSTOP_MS,
    web,
    attachments: prompt.attachments,
  });
  if (sandbox.network?.mode === "unreachable") {
    return fail(
      failure("config", "blocking", unreachableMessage(state.profile, state.provider, sandbox.network)),
    );
  }
  const settings = await launchSettings(join(runDir, "routing.json"), state.profile, profile);
  const plan = adapter.plan({
    runId: state.runId,
    phase,
    worktree: state.worktreePath,
    runDir,
    homeDir,
    binary,
    profile: {
      ...profile,
      name: state.profile,
      adapter: state.adapter,
      provider: state.provider,
      model: state.model,
      ...settings,
      ...sandbox.profile,
    },
    promptFile: prompt.file,
    prompt: prompt.text,
    baseEnv: baseEnv(ctx, state),
    apiKey: sandbox.apiKey,
    osSandbox: sandbox.os,
    ...(web ? { web: true } : {}),
    ...(prompt.resumeSession ? { resumeSession: prompt.resumeSession } : {}),
  });
  // The user's own CLI config and (for a profile without a key variable) login, copied in; spot's files win.
  const homeFiles = await copyHomeFiles(ctx, {
    adapter: state.adapter,
    provider: state.provider,
    keyed: profile?.apiKeyEnv !== undefined,
    homeDir,
    planFiles: plan.files,
  });
  await writePlanFiles(adapter, runDir, plan.files);
  // spot's own Deno programs keep their compiled code in spot's Deno cache: compiled before the launch under
  // an OS sandbox, which shows that cache read-only; compiled by themselves otherwise (deno_warm.ts).
  const programs = plan.denoPrograms ?? [];
  if (programs.length > 0 && !sandbox.os) plan.env.DENO_DIR = denoDir(ctx.env);
  const warm = programs.length > 0 && sandbox.os
    ? warmDenoPrograms(programs, { cacheRoot: ctx.paths.cacheRoot, env: ctx.env }).catch(() => false)
    : null;
  const launch = await sandbox.launch(plan, homeDir, homeFiles).catch(async (error) => {
    await warm;
    await removeHomeFiles(homeFiles);
    throw error;
  });
  await warm;
  const spec: WorkerStepSpec = {
    argv: launch.argv,
    cwd: state.worktreePath,
    envNames: Object.keys(launch.env),
    stdinFile: plan.stdinFile,
    timeoutMs: clock.timeoutSeconds * 1000,
    idleMs: clock.idleSeconds * 1000,
    rawStreamFile: join(runDir, "worker-stream.jsonl"),
    killBinary: killProgram(ctx),
  };
  return { ok: true, adapter, launch, spec, homeFiles };
}

export async function attempt(
  ctx: SpotContext,
  state: RunState,
  phase: Phase,
  prompt: TurnInput,
  n: number,
): Promise<AttemptResult> {
  // A spent budget stops the step the way an interrupt does, and is told apart from one below.
  const stop = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal;
  // What the launch detaches is re-parented to spot, which ends it after the turn.
  becomeSubreaper();
  // The step starts while the launch is planned, and is given up when the plan needs another (step_start.ts).
  const started = await startWorkerStep({ ...ctx, signal }, state);
  try {
    return await attemptOn(ctx, state, phase, prompt, n, { started, stop, signal });
  } finally {
    await started?.cancel();
  }
}

async function attemptOn(
  ctx: SpotContext,
  state: RunState,
  phase: Phase,
  prompt: TurnInput,
  n: number,
  { started, stop, signal }: { started: StartedStep | null; stop: AbortController; signal: AbortSignal },
): Promise<AttemptResult> {
  const planned = await planAttempt(ctx, state, phase, prompt, n);
  if (!planned.ok) return { outcome: planned.outcome, enforcement: null };
  const { adapter, launch, spec, homeFiles } = planned;
  const parse = newParseState();
  const box: { exit: ExitMessage | null } = { exit: null };
  let watch: ProcessWatch | null = null;
  let events = 0;
  let activity: string | null = null;
  let spent = NO_SPEND;
  let overBudget: string | null = null;
  const step = await runStarted({ ...ctx, signal }, started, {
    ...workerStart(ctx, state, launch),
    spec,
    timeoutMs: spec.timeoutMs + STEP_BACKSTOP_MS,
    sandbox: launch.level,
    sandboxBackend: launch.backend,
    enforcement: launch.enforcement,
    onMessage: async (message) => {
      // The worker's process tree is watched from its first moment, to end what detaches from it.
      if (message.t === "started" && Deno.build.os === "linux") watch = watchProcesses(message.pid);
      if (message.t === "exit") box.exit = message;
      if (message.t !== "line") return;
      for (const event of adapter.parseLine(message.line, parse)) {
        events++;
        activity = workerActivity(event, state.worktreePath) ?? activity;
        await ctx.store.event(state.runId, { ...event, phase });
        spent = spend(spent, event);
        overBudget ??= budgetSpent(prompt.budget, spent);
        if (overBudget && !stop.signal.aborted) stop.abort();
      }
      ctx.progress?.(`${phase} ${state.runId}: ${activity ? `${activity} · ` : ""}${events} events`);
    },
  }).finally(async () => {
    await launch.stop();
    await removeHomeFiles(homeFiles);
  });
  const reaped = (watch as ProcessWatch | null)?.reap() ?? [];
  if (reaped.length > 0) {
    await ctx.store.event(state.runId, {
      type: "note",
      message: `Ended ${reaped.length} process(es) the worker left outside its group: ${reaped.join(", ")}`,
    });
  }
  const judged = judgeTurn(adapter, parse, {
    exit: box.exit,
    step: step.result,
    aborted: !!ctx.signal?.aborted,
    idleSeconds: spec.idleMs / 1000,
  });
  // A spent budget fails the turn even when the worker finished before spot could stop it: a stream that
  // reports its whole spend in one burst, just before it ends, spent it all the same.
  const how = judged.ok ? "the worker finished over its budget" : "spot stopped the worker";
  const outcome: WorkerOutcome = overBudget
    ? {
      ...judged,
      ok: false,
      failure: { code: "budget", class: "blocking", message: `${how}: ${overBudget}` },
    }
    : judged;
  return { outcome, enforcement: launch.enforcement };
}
