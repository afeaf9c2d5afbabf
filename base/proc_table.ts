/**
 * Linux's process table, read from /proc, as plain records: which processes exist, their groups and
 * sessions, and when each started, so a pid reused by a later process is never taken for the one recorded.
 * Elsewhere there is no /proc, and every reader here returns nothing.
 */

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
  /** Clock ticks since boot when it started: a pid reused by another process has another start time. */
  start: number;
  /** `Z` for a zombie: already dead, waiting to be reaped. */
  state: string;
}

/** One `/proc/<pid>/stat` line; the name in parentheses may hold spaces and parentheses. */
export function parseStat(text: string): ProcInfo | null {
  const close = text.lastIndexOf(")");
  const pid = Number(text.slice(0, text.indexOf(" ")));
  if (close < 0 || !Number.isInteger(pid)) return null;
  const f = text.slice(close + 2).trim().split(" ");
  // After the name: state(0) ppid(1) pgrp(2) session(3) ... starttime(19).
  const [ppid, pgrp, session, start] = [f[1], f[2], f[3], f[19]].map(Number);
  if ([ppid, pgrp, session, start].some((n) => !Number.isFinite(n))) return null;
  return { pid, ppid, pgrp, session, start, state: f[0] };
}

/** Every process now, skipping those that end while being read. */
export function readProcesses(): ProcInfo[] {
  const out: ProcInfo[] = [];
  let entries: Iterable<Deno.DirEntry>;
  try {
    entries = Deno.readDirSync("/proc");
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const info = parseStat(Deno.readTextFileSync(`/proc/${e.name}/stat`));
      if (info) out.push(info);
    } catch {
      // Gone already.
    }
  }
  return out;
}

/** /proc reports start times in USER_HZ ticks, which is 100 on every Linux build spot runs on. */
const TICKS_PER_SECOND = 100;

/** When the machine booted (ms since the epoch, from /proc/stat `btime`), or null without /proc. */
export function bootTimeMs(): number | null {
  try {
    const m = /^btime (\d+)$/m.exec(Deno.readTextFileSync("/proc/stat"));
    return m ? Number(m[1]) * 1000 : null;
  } catch {
    return null;
  }
}

/** A process's start as wall-clock time (ms), to the second `btime` gives. */
export const startedAtMs = (p: ProcInfo, bootMs: number): number =>
  bootMs + (p.start * 1000) / TICKS_PER_SECOND;

/** `${pid}:${start}`: one process, never confused with a later one that got the same pid. */
export const identity = (p: ProcInfo) => `${p.pid}:${p.start}`;

/** Clock ticks since boot at which `pid` started, or null when it is gone or there is no /proc. */
export function startTicks(pid: number): number | null {
  try {
    return parseStat(Deno.readTextFileSync(`/proc/${pid}/stat`))?.start ?? null;
  } catch {
    return null;
  }
}

/** A process as a record can name it: its pid and its start, so a later process with that pid is not it. */
export interface ProcessStamp {
  pid: number;
  /** Clock ticks since boot at its start; null where there is no /proc. */
  start: number | null;
}

let self: ProcessStamp | undefined;

/** This process's stamp (read once). */
export function selfStamp(): ProcessStamp {
  return self ??= { pid: Deno.pid, start: startTicks(Deno.pid) };
}

/** Whether the stamped process still runs: the pid is taken by a process that started when it did. */
export function stampAlive(stamp: ProcessStamp): boolean {
  let now: ProcInfo | null = null;
  try {
    now = parseStat(Deno.readTextFileSync(`/proc/${stamp.pid}/stat`));
  } catch {
    // Gone, or no /proc here.
  }
  if (now === null) return stamp.start === null && pidExists(stamp.pid);
  return now.state !== "Z" && (stamp.start === null || now.start === stamp.start);
}

function pidExists(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}
