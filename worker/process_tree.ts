/**
 * The pure rules that say which processes belong to a launch: the descendants
 * of its root, and anything in a process group or session one of them leads.
 * The table itself is read in base/proc_table.ts (re-exported here).
 */
import { identity, type ProcInfo } from "../base/proc_table.ts";

export {
  bootTimeMs,
  identity,
  parseStat,
  type ProcInfo,
  readProcesses,
  startedAtMs,
} from "../base/proc_table.ts";

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
