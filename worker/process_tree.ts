/**
 * Linux's process table, read from /proc, as plain records; and the pure
 * rules that say which processes belong to a launch: the descendants of its
 * root, and anything in a process group or session one of them leads.
 * Elsewhere there is no /proc, and the group kill is all there is.
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

/** `root` and everything below it, by parent links, as it stands in `table`. */
export function descendants(table: ProcInfo[], root: number): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: ProcInfo[] = [];
  const todo = table.filter((p) => p.pid === root);
  while (todo.length > 0) {
    const p = todo.pop()!;
    out.push(p);
    todo.push(...(children.get(p.pid) ?? []).filter((c) => c.pid !== p.pid));
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

/**
 * Processes re-parented to `self` (a child subreaper) since `sinceStart` (clock ticks since boot), alive:
 * what a launch detached, found after its step ended. `own` holds the children `self` started itself and
 * still waits for (a sibling run's git, another launch's worker): they have the same parent link and are
 * never the launch's.
 */
export function orphansOf(
  table: ProcInfo[],
  self: number,
  sinceStart: number,
  own: ReadonlySet<number> = new Set(),
): ProcInfo[] {
  return table.filter((p) => p.ppid === self && p.state !== "Z" && p.start >= sinceStart && !own.has(p.pid));
}

/**
 * Which processes of `table` belong to the launch that `seen` recorded: a recorded process still alive, or
 * any process in a group or session led by a recorded process that is itself still alive (a daemon's
 * children after it detached). A leader that is gone no longer counts: its pid may already belong to
 * someone else. `self` (spot) and zombies are never on the list.
 */
export function leftovers(table: ProcInfo[], seen: ReadonlyMap<string, ProcInfo>, self: number): ProcInfo[] {
  const leaders = new Set(table.filter((p) => seen.has(identity(p))).map((p) => p.pid));
  return table.filter((p) =>
    p.pid !== self && p.state !== "Z" &&
    (seen.has(identity(p)) || leaders.has(p.pgrp) || leaders.has(p.session))
  );
}
