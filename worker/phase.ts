/**
 * One worker turn (run, revise or self-review): plan the launch with the
 * adapter, run it in the worker step, turn its stream into events, and let
 * the adapter decide the outcome. A transient failure is retried once.
 */
import { dirname, isAbsolute, join, relative } from "node:path";
import { finishIdle } from "../adapters/streams/finish.ts";
import { getAdapter } from "../adapters/mod.ts";
import {
  newParseState,
  type WorkerAdapter,
  type WorkerFailure,
  type WorkerOutcome,
} from "../adapters/types.ts";
import { SpotError } from "../errors.ts";
import { addUsage, type Phase } from "../schemas/events.ts";
import type { Capability } from "../schemas/task_contract.ts";
type CapabilityName = import("zod").infer<typeof Capability>;
import { nextFallback } from "../routing/fallback.ts";
import type { RunState } from "../schemas/run_state.ts";
import { locateBinary } from "../registry/locate.ts";
import type { StepMessage, WorkerStepSpec } from "../steps/protocol.ts";

type ExitMessage = Extract<StepMessage, { t: "exit" }>;
import type { SpotContext } from "../store/context.ts";
import { killProgram, runStep } from "../isolation/step_runner.ts";
import { reapLaunch } from "./reap.ts";
import { workerSandbox } from "../isolation/worker_launch.ts";

/** Names from the user's environment every worker gets; nothing else leaks in. */
const BASE_ENV_NAMES = ["PATH", "LANG", "LC_ALL", "TZ", "TERM"];
/** The step outlives its worker's own timeout by this much, as a backstop. */
const STEP_BACKSTOP_MS = 30_000;
/** The seed retries a transient failure exactly once. */
const MAX_ATTEMPTS = 2;

export interface PhaseResult {
  outcome: WorkerOutcome;
  attempts: number;
  durationMs: number;
  /** Set when a transient failure moved the turn along the profile's fallback chain. */
  switched?: Pick<RunState, "profile" | "adapter" | "provider" | "model">;
}

function failure(code: WorkerFailure["code"], cls: WorkerFailure["class"], message: string): WorkerOutcome {
  return {
    ok: false,
    failure: { code, class: cls, message },
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    costUsd: 0,
  };
}

export function resolveAdapter(state: RunState): WorkerAdapter {
  const adapter = getAdapter(state.adapter);
  if (!adapter) {
    throw new SpotError(
      "PROFILE_NOT_FOUND",
      `Cannot run "${state.runId}": no adapter named "${state.adapter}"`,
    );
  }
  return adapter;
}

/**
 * The worker binary: profile, then PI_WORKER_<ADAPTER>_BIN, then the adapter default on PATH, then
 * the adapter's candidate dirs under HOME (opencode's installer puts it in ~/.opencode/bin).
 */
export function resolveWorkerBinary(
  ctx: SpotContext,
  state: RunState,
  adapter: WorkerAdapter,
): string | null {
  const profile = ctx.config.profiles[state.profile];
  return locateBinary(state.adapter, adapter, { env: ctx.env, profileBinary: profile?.binary }).binary;
}

async function attempt(
  ctx: SpotContext,
  state: RunState,
  phase: Phase,
  prompt: { file: string; text: string },
  n: number,
): Promise<WorkerOutcome> {
  const adapter = resolveAdapter(state);
  const binary = resolveWorkerBinary(ctx, state, adapter);
  if (!binary) return failure("config", "blocking", `Cannot find the ${state.adapter} worker binary on PATH`);
  const profile = ctx.config.profiles[state.profile];
  const apiKey = profile?.apiKeyEnv ? ctx.env(profile.apiKeyEnv) : undefined;
  if (profile?.apiKeyEnv && !apiKey) {
    return failure("auth", "blocking", `Cannot start the worker: credential ${profile.apiKeyEnv} is not set`);
  }
  // A profile may need its own clock: a CLI that boots for 20 s needs a longer watchdog.
  const limits = {
    timeoutSeconds: profile?.limits?.workerTimeoutSeconds ?? ctx.config.limits.workerTimeoutSeconds,
    idleSeconds: profile?.limits?.workerIdleSeconds ?? ctx.config.limits.workerIdleSeconds,
  };
  const runDir = ctx.store.dir(state.runId);
  const homeDir = join(runDir, "homes", `${phase}-r${state.revisionRound}-a${n}`);
  await Deno.mkdir(homeDir, { recursive: true, mode: 0o700 });
  const baseEnv: Record<string, string> = {};
  for (const name of BASE_ENV_NAMES) {
    const value = ctx.env(name);
    if (value !== undefined) baseEnv[name] = value;
  }
  // Under an OS sandbox the worker gets a placeholder key and the forwarder's base URL.
  const sandbox = await workerSandbox(ctx, state, {
    binary,
    apiKey,
    profile,
    timeoutMs: limits.timeoutSeconds * 1000 + STEP_BACKSTOP_MS,
  });
  // Inside the OS sandbox the only way out is the forwarder, which needs to know where the provider is.
  if (sandbox.os && profile?.apiKeyEnv && !profile.baseUrl) {
    return failure(
      "config",
      "blocking",
      `Cannot reach provider "${state.provider}" from the sandbox: profile "${state.profile}" has no baseUrl ` +
        `(set profiles.${state.profile}.baseUrl, or prepare with --sandbox none)`,
    );
  }
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
      ...sandbox.profile,
    },
    promptFile: prompt.file,
    prompt: prompt.text,
    baseEnv,
    apiKey: sandbox.apiKey,
    osSandbox: sandbox.os,
  });
  for (const file of plan.files) {
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
  const launch = await sandbox.launch(plan, homeDir);
  const spec: WorkerStepSpec = {
    argv: launch.argv,
    cwd: state.worktreePath,
    envNames: Object.keys(launch.env),
    stdinFile: plan.stdinFile,
    timeoutMs: limits.timeoutSeconds * 1000,
    idleMs: limits.idleSeconds * 1000,
    rawStreamFile: join(runDir, "worker-stream.jsonl"),
    killBinary: killProgram(ctx),
  };
  const parse = newParseState();
  const box: { exit: ExitMessage | null } = { exit: null };
  let events = 0;
  const step = await runStep(ctx, {
    kind: "worker",
    runId: state.runId,
    policy: {
      read: [state.worktreePath, runDir],
      write: [state.worktreePath, runDir],
      run: [launch.program, ...(spec.killBinary ? [spec.killBinary] : [])],
      env: spec.envNames,
      net: [],
    },
    spec,
    env: launch.env,
    timeoutMs: spec.timeoutMs + STEP_BACKSTOP_MS,
    sandbox: launch.level,
    sandboxBackend: launch.backend,
    onMessage: async (message) => {
      if (message.t === "exit") box.exit = message;
      if (message.t !== "line") return;
      for (const event of adapter.parseLine(message.line, parse)) {
        events++;
        await ctx.store.event(state.runId, { ...event, phase });
      }
      ctx.progress?.(`${phase} ${state.runId}: ${events} events`);
    },
  }).finally(launch.stop);
  const reaped = reapLaunch(homeDir);
  if (reaped.length > 0) {
    await ctx.store.event(state.runId, {
      type: "note",
      message: `Ended ${reaped.length} process(es) the worker left outside its group: ${reaped.join(", ")}`,
    });
  }
  const finished = box.exit;
  if (!finished) {
    if (step.result.cancelled) return failure("cancelled", "permanent", "The worker was interrupted");
    return failure(
      "cli_crash",
      "transient",
      `The worker step ended without a result: ${
        step.result.stderr.slice(-500) || `exit ${step.result.exitCode}`
      }`,
    );
  }
  if (finished.idle) {
    const outcome = adapter.finish({ ...finished, timedOut: false, cancelled: false }, parse);
    return finishIdle(outcome, parse, limits.idleSeconds);
  }
  if (finished.spawnError) {
    return failure("config", "blocking", `Cannot start the worker: ${finished.spawnError}`);
  }
  return adapter.finish(
    {
      exitCode: finished.exitCode,
      signal: finished.signal,
      timedOut: finished.timedOut,
      cancelled: finished.cancelled || !!ctx.signal?.aborted,
      stderrTail: finished.stderrTail,
    },
    parse,
  );
}

export async function runWorkerPhase(
  ctx: SpotContext,
  state: RunState,
  phase: Phase,
  prompt: string,
  options: { requiredCapabilities?: readonly CapabilityName[] } = {},
): Promise<PhaseResult> {
  const promptFile = ctx.store.file(state.runId, `prompt-${phase}-r${state.revisionRound}.md`);
  await Deno.writeTextFile(promptFile, prompt, { mode: 0o600 });
  const started = Date.now();
  let outcome: WorkerOutcome = failure("cli_crash", "permanent", "The worker did not run");
  let n = 0;
  // Every attempt spent tokens, so the turn's usage is the sum over attempts, not the last one's.
  let usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let costUsd = 0;
  let current = state;
  const tried = [state.profile];
  for (;;) {
    for (let tries = 0; tries < MAX_ATTEMPTS; tries++) {
      n++;
      outcome = await attempt(ctx, current, phase, { file: promptFile, text: prompt }, n);
      usage = addUsage(usage, outcome.usage);
      costUsd += outcome.costUsd;
      outcome = { ...outcome, usage, costUsd };
      if (outcome.ok || outcome.failure?.class !== "transient" || ctx.signal?.aborted) break;
      if (tries + 1 < MAX_ATTEMPTS) {
        await ctx.store.event(state.runId, {
          type: "note",
          message: `Retrying the ${phase} turn after: ${outcome.failure.message}`,
        });
      }
    }
    if (outcome.ok || outcome.failure?.class !== "transient" || ctx.signal?.aborted) break;
    // Only a transient failure follows the chain: auth, capability and quota walls are not routed around.
    const next = nextFallback(ctx.config, current.profile, tried, options);
    if (!next) break;
    tried.push(next);
    const p = ctx.config.profiles[next];
    current = {
      ...current,
      profile: next,
      adapter: p.adapter,
      provider: p.provider,
      model: p.model,
      fallbackUsed: true,
    };
    await ctx.store.event(state.runId, {
      type: "note",
      message: `Falling back to profile ${next} after: ${outcome.failure.message}`,
    });
  }
  const switched = current.profile === state.profile ? undefined : {
    profile: current.profile,
    adapter: current.adapter,
    provider: current.provider,
    model: current.model,
  };
  return { outcome, attempts: n, durationMs: Date.now() - started, switched };
}
