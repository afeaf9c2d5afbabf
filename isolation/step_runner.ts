/**
 * Starts one of our step programs under a permission policy, relays its
 * messages, and records the subprocess in the run's `steps.jsonl`.
 */
import { fromFileUrl, join } from "../base/path.ts";
import { denoRunArgv } from "../sandbox/deno_flags.ts";
import type { StepPolicy } from "../sandbox/policy.ts";
import type { Enforcement, SandboxLevel } from "../schemas/sandbox_record.ts";
import { type ProcessResult, spawnProcess } from "../sandbox/spawn.ts";
import { which } from "../sandbox/which.ts";
import type { StepMessage } from "../steps/protocol.ts";
import type { SpotContext } from "../store/context.ts";
import { writeJsonAtomic } from "../store/files.ts";
import { takeLease } from "../store/ledger.ts";
import { startTicks } from "../base/proc_table.ts";
import { guardAfter } from "../base/guard_timer.ts";

/** A step gets this long to stop its own children after SIGTERM before we SIGKILL it. */
const STEP_KILL_GRACE_MS = 5_000;

export type StepKind = "worker" | "verify" | "setup" | "forwarder" | "egress";

/** A setup is one command run like a check: the verify step program runs it. */
const SCRIPTS: Record<StepKind, string> = {
  worker: "worker_step.ts",
  verify: "verify_step.ts",
  setup: "verify_step.ts",
  forwarder: "forwarder_step.ts",
  egress: "egress_step.ts",
};

export function stepScript(kind: StepKind): string {
  return fromFileUrl(new URL(`../steps/${SCRIPTS[kind]}`, import.meta.url));
}

/** Where Deno keeps its module cache, so a step with a private HOME still finds it. */
export function denoDir(env: (name: string) => string | undefined): string {
  const explicit = env("DENO_DIR");
  if (explicit) return explicit;
  const home = env("HOME") ?? "/tmp";
  if (Deno.build.os === "darwin") return join(home, "Library", "Caches", "deno");
  return join(env("XDG_CACHE_HOME") ?? join(home, ".cache"), "deno");
}

/** The `kill` program steps use for group kills; looked up where coreutils/procps put it. */
export function killProgram(ctx: SpotContext): string | undefined {
  return which("kill", `${ctx.env("PATH") ?? ""}:/bin:/usr/bin`) ?? undefined;
}

/** What a step is started with: its permissions, environment and time. */
export interface StepStart {
  kind: StepKind;
  runId: string;
  policy: Omit<StepPolicy, "script">;
  /** The step's complete environment. */
  env: Record<string, string>;
}

/** What a started step is given to do, and how what it starts is contained. */
export interface StepWork {
  spec: unknown;
  /** Counted from the moment the step gets its spec. */
  timeoutMs: number;
  onMessage: (message: StepMessage) => void | Promise<void>;
  /** The containment of what the step starts (`os` when it wraps it in a sandbox backend). */
  sandbox?: SandboxLevel;
  /** The backend that wrapped it, recorded beside the level. */
  sandboxBackend?: string;
  /** What the OS sandbox policy of what it starts enforced (null without one). */
  enforcement?: Enforcement | null;
}

export type StepRun = StepStart & StepWork;

export interface StepOutcome {
  stepId: string;
  result: ProcessResult;
  sandbox: SandboxLevel;
}

/**
 * A step whose Deno is starting (or waiting on its stdin for a spec) while spot prepares its work: a verb
 * starts it first and builds what it runs on meanwhile (docs/performance.md). Exactly one of `run` and
 * `cancel` ends it; `cancel` after `run` does nothing, so callers put it in a `finally`.
 */
export interface StartedStep {
  /** Whether it was started exactly as `start` would start one: the same kind, run, permissions and env. */
  fits(start: StepStart): boolean;
  /** Sends the spec, relays the step's messages, records it, and waits for it to end. */
  run(work: StepWork): Promise<StepOutcome>;
  /** Ends a step that will get no spec: it exits without doing anything, and nothing is recorded of it. */
  cancel(): Promise<void>;
}

export async function runStep(ctx: SpotContext, run: StepRun): Promise<StepOutcome> {
  return await (await startStep(ctx, run)).run(run);
}

/** Runs `run` on the step started for it when that one fits, else (giving that one up) on a new one. */
export async function runStarted(
  ctx: SpotContext,
  started: StartedStep | null,
  run: StepRun,
): Promise<StepOutcome> {
  if (started?.fits(run)) return await started.run(run);
  await started?.cancel();
  return await runStep(ctx, run);
}

/** The parts of a start that decide what the step may do, in a form two starts can be compared by. */
function startKey(start: StepStart): string {
  const sorted = (values: string[]) => [...new Set(values)].sort();
  const p = start.policy;
  return JSON.stringify([
    start.kind,
    start.runId,
    [p.read, p.write, p.run, p.env, p.net].map(sorted),
    Object.entries(start.env).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0),
  ]);
}

export async function startStep(ctx: SpotContext, start: StepStart): Promise<StartedStep> {
  const stepId = `${start.kind}-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 6)}`;
  const dir = ctx.store.dir(start.runId);
  const policy: StepPolicy = { ...start.policy, script: stepScript(start.kind) };
  const argv = denoRunArgv(Deno.execPath(), policy, []);
  const env = { ...start.env, DENO_DIR: denoDir(ctx.env), NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
  const activeFile = ctx.store.file(start.runId, "active-step.json");
  // The step's process group, recorded as it starts (and the worker's once the step starts it), so the next
  // verb on the run ends a step that a `kill -9` of spot orphaned (store/ledger.ts).
  const lease = await takeLease(dir, { kind: "process", what: `${start.kind} step`, processes: [] });
  // The spec goes on the step's stdin when the work is ready; an empty stdin ends the step (read_spec.ts).
  let sendSpec: (text: string) => void = () => {};
  const specText = new Promise<string>((resolve) => sendSpec = resolve);
  // Its timeout counts from the spec: a step waiting for one is spot's own time, not the step's.
  const stop = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal;
  let timedOut = false;
  let onLine: (line: string) => void = () => {};
  // Messages are handled in order, even when a handler awaits.
  let chain = Promise.resolve();
  let stepPid = 0;
  let stepStart: number | null = null;
  const spawned = spawnProcess(argv, {
    env,
    cwd: dir,
    stdinText: specText,
    signal,
    killGraceMs: STEP_KILL_GRACE_MS,
    onSpawn: (pid) => {
      stepPid = pid;
      stepStart = startTicks(pid);
      chain = chain.then(() => lease.update({ processes: [{ pid, start: stepStart }] }));
      // Names live processes only: no fsync (store/files.ts, AtomicOptions).
      chain = chain.then(() =>
        writeJsonAtomic(activeFile, { stepId, kind: start.kind, pid, at: ctx.now() }, { durable: false })
      );
    },
    onStdoutLine: (line) => onLine(line),
  });
  let ended = false;
  const end = async () => {
    await chain;
    await Deno.remove(activeFile).catch(() => {});
    await lease.release();
  };
  const key = startKey(start);
  return {
    fits: (other) => !ended && startKey(other) === key,
    async run(work) {
      if (ended) throw new Error(`The ${start.kind} step ${stepId} was already used or cancelled`);
      ended = true;
      chain = chain.then(() =>
        ctx.store.event(start.runId, { type: "step_start", step: start.kind, stepId, pid: stepPid })
      );
      onLine = (line) => {
        let message: StepMessage;
        try {
          message = JSON.parse(line) as StepMessage;
        } catch {
          return;
        }
        if (message.t === "started") {
          const child = { pid: message.pid, start: startTicks(message.pid) };
          chain = chain.then(() => lease.update({ processes: [{ pid: stepPid, start: stepStart }, child] }));
          chain = chain.then(() =>
            writeJsonAtomic(activeFile, {
              stepId,
              kind: start.kind,
              pid: stepPid,
              childPid: message.pid,
              at: ctx.now(),
            }, { durable: false })
          );
        }
        chain = chain.then(() => work.onMessage(message));
      };
      const stopTimer = guardAfter(work.timeoutMs, () => {
        timedOut = true;
        stop.abort();
      });
      const sentAt = Date.now();
      sendSpec(JSON.stringify(work.spec));
      const finished = await spawned;
      stopTimer();
      // The step's time is its work's, from its spec on; a started step only waited before that.
      const result = {
        ...finished,
        durationMs: Date.now() - sentAt,
        ...(timedOut ? { timedOut: true, cancelled: false } : {}),
      };
      await end();
      const sandbox: SandboxLevel = work.sandbox ?? "deno-permissions";
      await ctx.store.step(start.runId, {
        stepId,
        kind: start.kind,
        argv,
        sandbox,
        sandboxBackend: work.sandboxBackend ?? null,
        enforced: work.enforcement?.enforced ?? null,
        pid: result.pid,
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.timedOut,
        cancelled: result.cancelled,
        durationMs: result.durationMs,
        spawnError: result.spawnError ?? null,
        stderrTail: result.stderr.slice(-2000),
      });
      await ctx.store.event(start.runId, {
        type: "step_end",
        step: start.kind,
        stepId,
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.timedOut,
        durationMs: result.durationMs,
      });
      return { stepId, result, sandbox };
    },
    async cancel() {
      if (ended) return;
      ended = true;
      sendSpec("");
      await spawned;
      await end();
    },
  };
}
