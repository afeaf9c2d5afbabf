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
import { writeJsonAtomic, writeJsonInput } from "../store/files.ts";
import { takeLease } from "../store/ledger.ts";
import { startTicks } from "../base/proc_table.ts";

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

export interface StepRun {
  kind: StepKind;
  runId: string;
  policy: Omit<StepPolicy, "script">;
  spec: unknown;
  /** The step's complete environment. */
  env: Record<string, string>;
  timeoutMs: number;
  onMessage: (message: StepMessage) => void | Promise<void>;
  /** The containment of what the step starts (`os` when it wraps it in a sandbox backend). */
  sandbox?: SandboxLevel;
  /** The backend that wrapped it, recorded beside the level. */
  sandboxBackend?: string;
  /** What the OS sandbox policy of what it starts enforced (null without one). */
  enforcement?: Enforcement | null;
}

export interface StepOutcome {
  stepId: string;
  result: ProcessResult;
  sandbox: SandboxLevel;
}

export async function runStep(ctx: SpotContext, run: StepRun): Promise<StepOutcome> {
  const stepId = `${run.kind}-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 6)}`;
  const dir = ctx.store.dir(run.runId);
  const specFile = join(dir, "steps", `${stepId}.json`);
  await Deno.mkdir(join(dir, "steps"), { recursive: true });
  // The step reads its spec as it starts; a crash ends the step with it, so the spec needs no fsync.
  writeJsonInput(specFile, run.spec);
  // A step always reads its own spec, whatever else its policy grants.
  const policy: StepPolicy = {
    ...run.policy,
    read: [...run.policy.read, specFile],
    script: stepScript(run.kind),
  };
  const argv = denoRunArgv(Deno.execPath(), policy, [specFile]);
  const env = { ...run.env, DENO_DIR: denoDir(ctx.env), NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
  const activeFile = ctx.store.file(run.runId, "active-step.json");
  // The step's process group, recorded as it starts (and the worker's once the step starts it), so the next
  // verb on the run ends a step that a `kill -9` of spot orphaned (store/ledger.ts).
  const lease = await takeLease(dir, { kind: "process", what: `${run.kind} step`, processes: [] });
  // Messages are handled in order, even when a handler awaits.
  let chain = Promise.resolve();
  let stepPid = 0;
  let stepStart: number | null = null;
  const result = await spawnProcess(argv, {
    env,
    cwd: dir,
    timeoutMs: run.timeoutMs,
    signal: ctx.signal,
    killGraceMs: STEP_KILL_GRACE_MS,
    onSpawn: (pid) => {
      stepPid = pid;
      stepStart = startTicks(pid);
      chain = chain.then(() => lease.update({ processes: [{ pid, start: stepStart }] }));
      // Names live processes only: no fsync (store/files.ts, AtomicOptions).
      chain = chain.then(() =>
        writeJsonAtomic(activeFile, { stepId, kind: run.kind, pid, at: ctx.now() }, { durable: false })
      );
      chain = chain.then(() =>
        ctx.store.event(run.runId, { type: "step_start", step: run.kind, stepId, pid })
      );
    },
    onStdoutLine: (line) => {
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
            kind: run.kind,
            pid: stepPid,
            childPid: message.pid,
            at: ctx.now(),
          }, { durable: false })
        );
      }
      chain = chain.then(() => run.onMessage(message));
    },
  });
  await chain;
  await Deno.remove(activeFile).catch(() => {});
  await lease.release();
  const sandbox: SandboxLevel = run.sandbox ?? "deno-permissions";
  await ctx.store.step(run.runId, {
    stepId,
    kind: run.kind,
    argv,
    sandbox,
    sandboxBackend: run.sandboxBackend ?? null,
    enforced: run.enforcement?.enforced ?? null,
    pid: result.pid,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    cancelled: result.cancelled,
    durationMs: result.durationMs,
    spawnError: result.spawnError ?? null,
    stderrTail: result.stderr.slice(-2000),
  });
  await ctx.store.event(run.runId, {
    type: "step_end",
    step: run.kind,
    stepId,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
  });
  return { stepId, result, sandbox };
}
