/**
 * Step program: runs one worker CLI launch under the permissions spot gave
 * this process, appends the raw stream to the run directory and forwards
 * each line. Its spec comes on stdin (read_spec.ts).
 */
import { guardAfter, guardEvery } from "../base/guard_timer.ts";
import { spawnProcess } from "../sandbox/spawn.ts";
import { emit, watchParent } from "./emit.ts";
import type { WorkerStepSpec } from "./protocol.ts";
import { readSpec } from "./read_spec.ts";

/** Enough stderr to explain a crash without flooding the run record. */
const STDERR_TAIL_CHARS = 4_000;
/** The watchdog looks this often; finer gains nothing for multi-second limits. */
const IDLE_CHECK_MS = 250;
/**
 * The worktree watch starts this far into the turn (at most a tenth of the idle limit): a turn over by then
 * needs none, and Deno's file watcher adds ~13 ms to the end of the process that started it. A turn whose only
 * sign of life is a file written before then is found idle at most this much sooner.
 */
const WATCH_AFTER_MS = 1_000;

/** Watches the worktree for any change; a tree it may not watch just means stdout alone counts. */
function watchWorktree(dir: string, onChange: () => void): Deno.FsWatcher | null {
  let watcher: Deno.FsWatcher;
  try {
    watcher = Deno.watchFs(dir, { recursive: true });
  } catch {
    return null;
  }
  (async () => {
    try {
      for await (const _ of watcher) onChange();
    } catch {
      // Closed at the end of the launch.
    }
  })();
  return watcher;
}

// No spec: spot gave the step up before its work was ready.
const spec = (await readSpec<WorkerStepSpec>()) ?? Deno.exit(0);
const env: Record<string, string> = {};
for (const name of spec.envNames) {
  const value = Deno.env.get(name);
  if (value !== undefined) env[name] = value;
}

const raw = await Deno.open(spec.rawStreamFile, { create: true, append: true });
const encoder = new TextEncoder();
const controller = new AbortController();
let lastActivity = Date.now();
let idle = false;
let orphaned = false;

const touch = () => lastActivity = Date.now();
// A file written in the worktree is progress even when the CLI prints nothing (a long edit, a build).
let watcher: Deno.FsWatcher | null = null;
const stopWatchStart = guardAfter(
  Math.min(WATCH_AFTER_MS, spec.idleMs / 10),
  () => watcher = watchWorktree(spec.cwd, touch),
);
const stopIdleCheck = guardEvery(IDLE_CHECK_MS, () => {
  if (Date.now() - lastActivity > spec.idleMs && !controller.signal.aborted) {
    idle = true;
    controller.abort();
  }
});
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  Deno.addSignalListener(sig, () => controller.abort());
}
const stopWatching = watchParent(() => {
  orphaned = true;
  controller.abort();
});

const result = await spawnProcess(spec.argv, {
  cwd: spec.cwd,
  env,
  stdinFile: spec.stdinFile,
  timeoutMs: spec.timeoutMs,
  signal: controller.signal,
  killBinary: spec.killBinary,
  onSpawn: (pid) => emit({ t: "started", pid }),
  onStdoutLine: (line) => {
    touch();
    raw.writeSync(encoder.encode(line + "\n"));
    if (!emit({ t: "line", line })) controller.abort();
  },
  // stderr is not progress: CLIs log retries and stack traces there while they get nowhere.
});
stopIdleCheck();
stopWatchStart();
(watcher as Deno.FsWatcher | null)?.close();
stopWatching();
raw.close();

emit({
  t: "exit",
  exitCode: result.exitCode,
  signal: result.signal,
  timedOut: result.timedOut,
  idle,
  cancelled: result.cancelled && !idle,
  durationMs: result.durationMs,
  spawnError: result.spawnError,
  stderrTail: result.stderr.slice(-STDERR_TAIL_CHARS),
});
Deno.exit(orphaned ? 130 : 0);
