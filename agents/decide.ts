/**
 * The poll decision, pure: from what was observed of an agent (its handle,
 * its driver, its run's events and stream) to one status line and whether
 * the agent must be stopped first. The order is the pi-dispatch seed's:
 * a persisted line first, then the handle, then the process state, and only
 * for a live process the terminal event, the provider wall, the wall clock
 * and the stall threshold.
 */
import { judgeResult, type TerminalResult } from "./judge.ts";

export type Wall = "QUOTA" | "QUOTA-WINDOW";

export interface PollFacts {
  /** Milliseconds since the epoch, now. */
  now: number;
  /** The terminal line a previous poll persisted. */
  persisted: string | null;
  /** Null when the name is registered but its handle is missing or unreadable. */
  handle: { pid: number | null; startedAt: number } | null;
  alive: boolean;
  /** The driver's exit marker, and when it was written (ms): a settled agent's elapsed time ends there. */
  rc: number | null;
  endedAt: number | null;
  /** Where the distilled final text is (or will be) written. */
  output: string;
  /** Size of the worker's raw stream so far. */
  streamBytes: number;
  /** The last time the run's stream or events grew (ms), or null before the first. */
  lastActivity: number | null;
  /** The worker's final message, when it sent one. */
  result: (TerminalResult & { at: number }) | null;
  /** A tool call has started and not yet ended. */
  toolRunning: boolean;
  /** A provider wall seen in the worker's errors, with its message. */
  wall: { tag: Wall; message: string } | null;
  /** Why it failed, as the run or the driver said it (the first error message wins). */
  cause: string | null;
  meta: { model: string; costUsd: number; turns: number };
}

export interface Thresholds {
  wallClockSeconds: number;
  stallSeconds: number;
  noMarkerGraceSeconds: number;
  settleSeconds: number;
}

export interface Decision {
  line: string;
  /** The line is final: persist it, and replay it on every later poll. */
  terminal: boolean;
  /** Stop the agent's process group before persisting the line. */
  stop: boolean;
  /** Set when the line reports a provider wall (watch aborts the siblings). */
  wall?: Wall;
}

const seconds = (ms: number) => Math.max(0, Math.floor(ms / 1000));

/** `cause:` text: one line, lower case, at most 120 characters. */
export function causeText(message: string): string {
  return message.replace(/\s+/g, " ").trim().toLowerCase().slice(0, 120);
}

function meta(f: PollFacts): string {
  return `model=${f.meta.model} cost=$${f.meta.costUsd.toFixed(4)} turns=${f.meta.turns}`;
}

function fail(f: PollFacts, elapsed: number, reason: string, extra: Partial<Decision> = {}): Decision {
  const cause = f.wall?.message ?? f.cause;
  const tail = cause ? ` cause:${causeText(cause)}` : "";
  return {
    line: `STATUS=FAIL OUTPUT=${f.output} ${elapsed}s ${f.streamBytes}B ${reason} ${meta(f)}${tail}`,
    terminal: true,
    stop: false,
    ...extra,
  };
}

/** Judges the worker's final message; a wall behind an error is tagged so watch can act on it. */
function judged(f: PollFacts, elapsed: number, stop: boolean): Decision {
  if (!f.result) return fail(f, elapsed, "died-mid-stream no-terminal", { stop });
  const verdict = judgeResult(f.result);
  if (verdict.ok) {
    return {
      line: `STATUS=OK OUTPUT=${f.output} ${elapsed}s ${verdict.bytes}B rc=0 terminal=stop ${meta(f)}`,
      terminal: true,
      stop,
    };
  }
  const wall = f.wall && verdict.reason.startsWith("ERROR") ? f.wall.tag : undefined;
  return fail(f, elapsed, wall ? `${verdict.reason} ${wall}` : verdict.reason, { stop, wall });
}

export function decide(f: PollFacts, t: Thresholds): Decision {
  if (f.persisted) return { line: f.persisted, terminal: true, stop: false, wall: wallIn(f.persisted) };
  if (!f.handle) return { line: "STATUS=FAIL handle=broken", terminal: false, stop: false };
  const elapsed = seconds(f.now - f.handle.startedAt);
  if (f.handle.pid === null) return fail(f, elapsed, "no-pid");
  const stale = seconds(f.now - (f.lastActivity ?? f.handle.startedAt));
  if (!f.alive) {
    const ranFor = (end: number | null) => seconds((end ?? f.now) - f.handle!.startedAt);
    if (f.rc !== null) {
      const elapsed = ranFor(f.endedAt);
      if (f.rc !== 0) {
        const wall = f.wall?.tag;
        return fail(f, elapsed, wall ? `exit rc=${f.rc} ${wall}` : `exit rc=${f.rc}`, { wall });
      }
      return judged(f, elapsed, false);
    }
    if (stale >= t.noMarkerGraceSeconds) return fail(f, ranFor(f.lastActivity), "no-rc");
    return { line: "RUNNING settling", terminal: false, stop: false };
  }
  if (f.result && seconds(f.now - f.result.at) >= t.settleSeconds) return judged(f, elapsed, true);
  if (f.wall) return fail(f, elapsed, f.wall.tag, { stop: true, wall: f.wall.tag });
  if (elapsed >= t.wallClockSeconds) {
    return fail(f, elapsed, `TIMEOUT wall=${t.wallClockSeconds}s`, { stop: true });
  }
  const threshold = t.stallSeconds * (f.toolRunning ? 2 : 1);
  if (stale >= threshold) return fail(f, elapsed, `STALL stale=${stale}s thr=${threshold}s`, { stop: true });
  return { line: `RUNNING ${elapsed}s ${f.streamBytes}B stale=${stale}s`, terminal: false, stop: false };
}

/** The line of a still-running sibling stopped because another agent of the same watch hit a wall. */
export function siblingAbort(f: PollFacts, tag: Wall): Decision {
  const elapsed = f.handle ? seconds(f.now - f.handle.startedAt) : 0;
  return { ...fail({ ...f, wall: null, cause: null }, elapsed, `${tag} sibling-abort`), stop: true };
}

/** The wall a persisted line reports, if any. */
export function wallIn(line: string): Wall | undefined {
  const m = / (QUOTA-WINDOW|QUOTA)(?= |$)/.exec(line.split(" cause:")[0]);
  return m ? m[1] as Wall : undefined;
}

/** Lines that still change: a settled agent's line does not. */
export const inFlight = (line: string): boolean => line.startsWith("RUNNING");
