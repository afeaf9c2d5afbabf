/**
 * Runs the contract's verification commands through the verify step, in a
 * given directory, with the env allowlist and output caps.
 */
import type { Enforcement } from "../schemas/sandbox_record.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import type { StepMessage, VerifyStepSpec } from "../steps/protocol.ts";
import type { SpotContext } from "../store/context.ts";
import {
  killProgram,
  runStarted,
  type StartedStep,
  startStep,
  type StepStart,
} from "../isolation/step_runner.ts";
import { checkLaunch } from "../isolation/check_launch.ts";
import { sandboxForRun } from "../isolation/run_sandbox.ts";
import { dependencyHint } from "../verify/dependency_hint.ts";
import { guardedCommands } from "./runner_guard.ts";

/** Names every check inherits from spot's own environment (the seed's list). */
const PASS_ENV = ["PATH", "HOME", "TMPDIR", "TMP", "TEMP", "LANG", "LC_ALL"];

export interface CommandResult {
  argv: string[];
  timeoutSeconds: number;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  spawnError: string | null;
  passed: boolean;
  /** For a check that failed on a missing dependency: what the trees had and how to provide it. */
  hint?: string;
}

const hinted = (hint: string | null) => hint ? { hint } : {};

export interface ChecksResult {
  passed: boolean;
  /** What the checks' sandbox policies enforced; null without an OS sandbox. */
  enforcement: Enforcement | null;
  outputTruncated: boolean;
  interrupted: boolean;
  commands: CommandResult[];
}

/** Long enough to tell checks apart on a progress line (`deno test … add_test.ts`), short enough for it. */
const SHORT_ARGV_CHARS = 48;

/** A check's argv as a progress line shows it: the program's name, its arguments, the middle cut when long. */
export function shortArgv(argv: readonly string[]): string {
  const program = argv[0]?.split("/").pop() ?? "";
  const text = [program, ...argv.slice(1)].join(" ");
  if (text.length <= SHORT_ARGV_CHARS) return text;
  const tail = argv.length > 1 ? ` … ${argv[argv.length - 1]}` : "";
  const room = SHORT_ARGV_CHARS - tail.length;
  return room > program.length + 2
    ? `${text.slice(0, room).trimEnd()}${tail}`
    : `${text.slice(0, SHORT_ARGV_CHARS - 1)}…`;
}

/** Which verb's checks these are, for the progress line: verify's, or integrate's on the landed commit. */
function phaseLabel(status: string): string {
  return status === "verifying" ? "verify" : status === "committed" ? "integrate" : status;
}

/** How the verify step for checks in `cwd` starts: it may run `programs` (and `kill`), read `cwd` only. */
function checksStart(ctx: SpotContext, runId: string, cwd: string, programs: string[]): StepStart {
  const killBinary = killProgram(ctx);
  const env: Record<string, string> = {};
  for (const name of PASS_ENV) {
    const value = ctx.env(name);
    if (value !== undefined) env[name] = value;
  }
  return {
    kind: "verify",
    runId,
    policy: {
      read: [cwd, ctx.store.dir(runId)],
      write: [],
      run: [...programs, ...(killBinary ? [killBinary] : [])],
      env: PASS_ENV,
      net: [],
    },
    env,
  };
}

/**
 * Starts the verify step for checks that will run in `cwd` (a pristine tree not built yet), so its Deno
 * starts while spot scans the diff and builds the tree (docs/performance.md). Only under an OS sandbox, where
 * the one program the step runs is the sandbox's, known before the checks are resolved; otherwise, or when
 * anything about the sandbox is off (its error comes when the checks launch, as before), null: `runChecks`
 * starts its own. `runChecks` uses this one only when it fits exactly what the checks need.
 */
export async function startChecksStep(
  ctx: SpotContext,
  state: RunState,
  task: ResolvedContract,
  cwd: string,
): Promise<StartedStep | null> {
  if (task.verification.length === 0) return null;
  try {
    const box = await sandboxForRun(ctx, state);
    if (box.backend.level !== "os") return null;
    return await startStep(ctx, checksStart(ctx, state.runId, cwd, [box.backend.program([])]));
  } catch {
    return null;
  }
}

export async function runChecks(
  ctx: SpotContext,
  runId: string,
  task: ResolvedContract,
  cwd: string,
  started: StartedStep | null = null,
): Promise<ChecksResult> {
  const run = await ctx.store.load(runId);
  // The runner from outside the tree, never a tree directory on its PATH or in front of its modules.
  const commands = await guardedCommands(ctx, run, { task, cwd, passEnv: PASS_ENV });
  const killBinary = killProgram(ctx);
  const box = await checkLaunch(ctx, runId, cwd, commands);
  const deps = run.dependencies;
  const spec: VerifyStepSpec = {
    cwd,
    commands: box.commands,
    maxChars: ctx.config.limits.maxCapturedCharsPerStream,
    killBinary,
  };
  const results: CommandResult[] = [];
  const label = `${phaseLabel(run.status)} ${runId}`;
  // The checks run one after another in one step: the next one starts as soon as the last one reports.
  const announce = (index: number) => {
    const next = task.verification[index];
    if (next) ctx.progress?.(`${label}: check ${index + 1}/${commands.length}: ${shortArgv(next.argv)}`);
  };
  announce(0);
  const totalSeconds = commands.reduce((sum, c) => sum + c.timeoutSeconds, 0);
  const step = await runStarted(ctx, started, {
    ...checksStart(ctx, runId, cwd, box.programs),
    spec,
    timeoutMs: (totalSeconds + 30) * 1000,
    sandbox: box.level,
    sandboxBackend: box.backend,
    enforcement: box.enforcement,
    onMessage: async (message: StepMessage) => {
      if (message.t !== "command") return;
      const original = task.verification[message.index];
      const truncated = message.stdoutTruncated || message.stderrTruncated;
      const passed = message.exitCode === 0 && !message.timedOut && !truncated;
      results.push({
        argv: original.argv,
        timeoutSeconds: original.timeoutSeconds,
        exitCode: message.exitCode,
        signal: message.signal,
        timedOut: message.timedOut,
        durationMs: message.durationMs,
        stdout: message.stdout,
        stderr: message.stderr,
        stdoutTruncated: message.stdoutTruncated,
        stderrTruncated: message.stderrTruncated,
        spawnError: message.spawnError ?? null,
        passed,
        ...(passed ? {} : hinted(dependencyHint(message.stdout + message.stderr, deps))),
      });
      await ctx.store.event(runId, {
        type: "verify_command",
        index: message.index,
        argv: original.argv,
        passed,
        exitCode: message.exitCode,
        timedOut: message.timedOut,
        durationMs: message.durationMs,
      });
      if (results.length < commands.length) announce(results.length);
      else {ctx.progress?.(
          `${label}: ${commands.length}/${commands.length} checks ran, ${passedCount(results)} passed`,
        );}
    },
  }).finally(async () => {
    // Only an empty dir is removed: a mount point bwrap made, never anything a check wrote.
    for (const dir of box.mountPoints) await Deno.remove(dir).catch(() => {});
  });
  const interrupted = step.result.cancelled || results.length < commands.length;
  return {
    passed: !interrupted && results.every((r) => r.passed),
    enforcement: box.enforcement,
    outputTruncated: results.some((r) => r.stdoutTruncated || r.stderrTruncated),
    interrupted,
    commands: results,
  };
}

const passedCount = (results: readonly CommandResult[]) => results.filter((r) => r.passed).length;

/** A few lines a worker or a human can read about the checks. */
export function summarizeChecks(checks: Pick<ChecksResult, "commands">): string {
  return checks.commands.map((c) =>
    `${c.passed ? "PASS" : "FAIL"} ${c.argv.join(" ")} (exit ${c.exitCode ?? c.signal ?? "none"}${
      c.timedOut ? ", timed out" : ""
    })` +
    (c.passed ? "" : `\n${(c.stdout + c.stderr).slice(-1500)}`) + (c.hint ? `\nHint: ${c.hint}` : "")
  ).join("\n") || "no checks ran";
}
