/**
 * The only place in spot that starts a process. A finished process is data:
 * one result shape for success, failure, timeout and cancellation. Children
 * always get a cleared environment, their own process group (so a timeout
 * kills everything they started) unless told otherwise (git's reads), and
 * stdin closed unless told otherwise.
 */
import { Capture, pump } from "../base/capture.ts";
import { guardAfter, type StopGuard } from "../base/guard_timer.ts";
import { processLabel, recordTiming, timingsEnabled } from "../base/timings.ts";
import { sessionArgv } from "./which.ts";

/** A worker that ignores SIGTERM gets this long before SIGKILL. */
export const KILL_GRACE_MS = 1_000;
/** After the main process exits, how long we wait for its pipes to drain. */
export const DRAIN_TIMEOUT_MS = 2_000;
/** Default cap per captured stream; callers that need more say so. */
export const DEFAULT_MAX_OUTPUT_CHARS = 1_000_000;

const live = new Set<number>();
/** The pids this isolate started that have not exited: never a launch's orphans, whatever their parent link. */
export const ownChildren = (): ReadonlySet<number> => live;
function track(child: Deno.ChildProcess): void {
  live.add(child.pid);
  child.status.finally(() => live.delete(child.pid)).catch(() => {});
}

export interface SpawnOptions {
  cwd?: string;
  /** The complete environment of the child (spawned with clearEnv). */
  env: Record<string, string>;
  /** Feed this file on stdin, then close it. */
  stdinFile?: string;
  /** Feed this text on stdin, then close it; a promise is fed when it settles (a step started before its spec). */
  stdinText?: string | Promise<string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Cap of each captured stream, in characters. */
  maxOutputChars?: number;
  onStdoutLine?: (line: string) => void;
  onStderrLine?: (line: string) => void;
  onSpawn?: (pid: number) => void;
  /** Time between SIGTERM and SIGKILL when stopping the group. */
  killGraceMs?: number;
  /** The `kill` program for group kills where Deno.kill is not permitted (inside steps). */
  killBinary?: string;
  /** Kill the whole process group when the leader exits (default true). */
  reapGroup?: boolean;
  /**
   * Start the child in a process group of its own (default true), so a timeout or a cancel stops everything
   * it started and the group is reaped after it. `false` is for short programs of ours that get no timeout
   * (git): the child then stays in spot's group and only its own pid is signalled. It saves the fork that
   * setting up a group costs (Deno can no longer use posix_spawn): about 1 ms in a small process, more in a
   * verb with a large heap, paid on each of the loop's ~55 git calls.
   */
  group?: boolean;
}

export interface ProcessResult {
  argv: string[];
  pid: number | null;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  durationMs: number;
  /** Set when the process could not start at all. */
  spawnError?: string;
}

/**
 * Sends a signal to a whole process group; a group already gone is fine.
 * `Deno.kill` needs unscoped --allow-run, which steps never get, so a step
 * passes the resolved `kill` program (allowed by name) to fall back on.
 */
export function killGroup(pid: number, signal: Deno.Signal, killBinary?: string): boolean {
  try {
    Deno.kill(-pid, signal);
    return true;
  } catch (error) {
    if (!killBinary || !(error instanceof Deno.errors.NotCapable)) return false;
  }
  try {
    return new Deno.Command(killBinary, {
      args: ["-s", signal.replace(/^SIG/, ""), "--", `-${pid}`],
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

/** Signals a child: its whole group when it leads one, else the child alone. */
function signalChild(pid: number, grouped: boolean, signal: Deno.Signal, killBinary?: string): void {
  // A child started through `setsid` (which.ts) has no group of its own for the instant before it makes
  // one: the child alone is signalled then (nothing of it has started anything yet).
  if (grouped && killGroup(pid, signal, killBinary)) return;
  try {
    Deno.kill(pid, signal);
  } catch {
    // Gone already, or not permitted (a step never starts an ungrouped child).
  }
}

/** True when a process with this pid exists and is not a zombie waiting to be reaped. */
export function processAlive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
  } catch {
    return false;
  }
  try {
    // "pid (comm) S ..." — comm may hold spaces and parentheses, so read the state after the last ")".
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

function failedStart(argv: string[], started: number, error: unknown): ProcessResult {
  return {
    argv,
    pid: null,
    exitCode: null,
    signal: null,
    timedOut: false,
    cancelled: false,
    stdout: "",
    stderr: "",
    stdoutTruncated: false,
    stderrTruncated: false,
    durationMs: Date.now() - started,
    spawnError: error instanceof Error ? error.message : String(error),
  };
}

/** Runs argv to completion and returns what happened; never throws for the child's sake. */
export async function spawnProcess(argv: string[], options: SpawnOptions): Promise<ProcessResult> {
  const started = Date.now();
  const max = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const feed = options.stdinFile !== undefined || options.stdinText !== undefined;
  let stdinSource: Deno.FsFile | undefined;
  let child: Deno.ChildProcess;
  try {
    // Open the input before starting the child, so a missing file cannot leave it waiting on stdin.
    if (options.stdinFile !== undefined) stdinSource = await Deno.open(options.stdinFile, { read: true });
    const session = options.group === false ? null : sessionArgv(argv, options.env);
    const start = session ?? argv;
    child = new Deno.Command(start[0], {
      args: start.slice(1),
      cwd: options.cwd,
      clearEnv: true,
      env: options.env,
      stdin: feed ? "piped" : "null",
      stdout: "piped",
      stderr: "piped",
      detached: options.group !== false && session === null,
    }).spawn();
  } catch (error) {
    stdinSource?.close();
    return failedStart(argv, started, error);
  }
  const pid = child.pid;
  const grouped = options.group !== false;
  track(child);
  options.onSpawn?.(pid);
  const out = new Capture(max, options.onStdoutLine);
  const err = new Capture(max, options.onStderrLine);
  const pumps = Promise.all([pump(child.stdout, out), pump(child.stderr, err)]);
  if (feed) void feedStdin(child.stdin, stdinSource, options.stdinText).catch(() => {});

  let timedOut = false;
  let cancelled = false;
  // Guards, not setTimeout: the child (or its pipes) keeps the process alive while they run (guard_timer.ts).
  let stopKill: StopGuard | undefined;
  const stop = (why: "timeout" | "cancel") => {
    if (why === "timeout") timedOut = true;
    else cancelled = true;
    signalChild(pid, grouped, "SIGTERM", options.killBinary);
    stopKill ??= guardAfter(
      options.killGraceMs ?? KILL_GRACE_MS,
      () => signalChild(pid, grouped, "SIGKILL", options.killBinary),
    );
  };
  const stopTimeout = options.timeoutMs ? guardAfter(options.timeoutMs, () => stop("timeout")) : undefined;
  const onAbort = () => stop("cancel");
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });

  const status = await child.status;
  stopTimeout?.();
  stopKill?.();
  options.signal?.removeEventListener("abort", onAbort);
  // Whatever the leader left behind in its group goes with it.
  if (grouped && options.reapGroup !== false) killGroup(pid, "SIGKILL", options.killBinary);
  let stopDrain: StopGuard | undefined;
  await Promise.race([
    pumps,
    new Promise((resolve) => stopDrain = guardAfter(DRAIN_TIMEOUT_MS, () => resolve(null))),
  ]);
  stopDrain?.();
  if (timingsEnabled()) recordTiming(processLabel(argv), Date.now() - started);
  return {
    argv,
    pid,
    exitCode: status.signal ? null : status.code,
    signal: status.signal ?? null,
    timedOut,
    cancelled,
    stdout: out.text,
    stderr: err.text,
    stdoutTruncated: out.truncated,
    stderrTruncated: err.truncated,
    durationMs: Date.now() - started,
  };
}

async function feedStdin(
  stdin: WritableStream<Uint8Array>,
  file: Deno.FsFile | undefined,
  text?: string | Promise<string>,
): Promise<void> {
  if (file) {
    await file.readable.pipeTo(stdin);
    return;
  }
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(await text ?? ""));
  } finally {
    await writer.close();
  }
}

/** Hands the terminal to a program (tmux attach) and returns its exit code; for people, not for steps. */
export async function spawnInteractive(
  argv: string[],
  options: { env: Record<string, string> },
): Promise<number> {
  try {
    const child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      clearEnv: true,
      env: options.env,
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    track(child);
    return (await child.status).code;
  } catch {
    return 127;
  }
}

export interface DetachedStart {
  pid: number | null;
  /** Set when the process could not start at all. */
  spawnError?: string;
}

/**
 * Starts a process that outlives its caller: its own session and process group, stdin and stdout closed,
 * stderr closed or appended to `stderrFile` (through `sh`, which execs the program: the pid is the program's),
 * and nothing of it awaited, so the caller may exit at once. Its results are whatever it writes.
 */
export function spawnDetached(
  argv: string[],
  options: { cwd?: string; env: Record<string, string>; stderrFile?: string },
): DetachedStart {
  const full = options.stderrFile === undefined
    ? argv
    : ["/bin/sh", "-c", 'log="$1"; shift; exec "$@" 2>>"$log"', "sh", options.stderrFile, ...argv];
  try {
    const child = new Deno.Command(full[0], {
      args: full.slice(1),
      cwd: options.cwd,
      clearEnv: true,
      env: options.env,
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn();
    // Reap it if the caller lives long enough; never keep the caller alive for it.
    track(child);
    child.unref();
    return { pid: child.pid };
  } catch (error) {
    return { pid: null, spawnError: error instanceof Error ? error.message : String(error) };
  }
}
