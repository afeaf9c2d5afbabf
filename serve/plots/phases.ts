/**
 * Where a run's time went, from its transitions: how long it stayed in each status (a run's detail), and a
 * job's tasks laid on one clock (waiting for their `after`, the worker, the checks, the review). Pure.
 */
import { ACTIVE } from "../../store/run_entry.ts";
import type { Status } from "../../schemas/run_state.ts";

export interface Transition {
  to: string;
  at: string;
}

export interface PhaseTime {
  phase: string;
  ms: number;
}

/** The kinds of a task's time on a job's timeline, in the order a task lives them. */
export const SEGMENT_KINDS = ["wait", "setup", "worker", "checks", "review", "integration", "run"] as const;
export type SegmentKind = typeof SEGMENT_KINDS[number];

export interface Segment {
  kind: SegmentKind;
  start: string;
  end: string;
  ms: number;
}

const KIND_OF: Record<string, SegmentKind> = {
  prepared: "setup",
  running: "worker",
  revising: "worker",
  verifying: "checks",
  selfReviewing: "review",
  reviewing: "review",
  approved: "integration",
  committed: "integration",
};

const time = (iso: string | null | undefined): number | null => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : null;
};

/** Well-formed transitions, oldest first. */
export function cleanTransitions(list: unknown): Transition[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((t) =>
    typeof t?.to === "string" && time(t?.at) !== null ? [{ to: String(t.to), at: String(t.at) }] : []
  ).sort((a, b) => time(a.at)! - time(b.at)!);
}

/**
 * Intervals by status: each transition's status lasts until the next; the last one, when the run is still in
 * it and it is an active status, until now.
 */
function intervals(
  list: readonly Transition[],
  now: number,
  status?: string,
): { status: string; start: number; end: number }[] {
  const out: { status: string; start: number; end: number }[] = [];
  list.forEach((t, i) => {
    const start = time(t.at)!;
    const next = list[i + 1];
    const open = ACTIVE.has(t.to as Status) && (status === undefined || status === t.to);
    const end = next ? time(next.at)! : open ? now : null;
    if (end !== null && end > start) out.push({ status: t.to, start, end });
  });
  return out;
}

/** Milliseconds in each status, in the order the run first entered them; `status` is the run's own. */
export function runPhases(transitions: unknown, now: Date, status?: string): PhaseTime[] {
  const totals = new Map<string, number>();
  for (const i of intervals(cleanTransitions(transitions), now.getTime(), status)) {
    totals.set(i.status, (totals.get(i.status) ?? 0) + i.end - i.start);
  }
  return [...totals].map(([phase, ms]) => ({ phase, ms }));
}

export interface TimelineTask {
  id: string;
  after: readonly string[];
  state: string;
  startedAt: string | null;
  endedAt: string | null;
  transitions: readonly Transition[];
}

function segment(kind: SegmentKind, start: number, end: number): Segment {
  return { kind, start: new Date(start).toISOString(), end: new Date(end).toISOString(), ms: end - start };
}

/**
 * Each task's segments: the wait from when it could start (the job's start, or its last `after` ending) to its
 * start, then its run's statuses mapped to kinds, within the task's own start and end (now while it runs).
 */
export function taskSegments(
  tasks: readonly TimelineTask[],
  o: { jobStart: string | null; now: Date },
): Map<string, Segment[]> {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const start0 = time(o.jobStart) ?? Math.min(...tasks.map((t) => time(t.startedAt) ?? Infinity));
  const out = new Map<string, Segment[]>();
  for (const t of tasks) {
    const start = time(t.startedAt);
    const end = t.state === "running" ? o.now.getTime() : time(t.endedAt);
    const segments: Segment[] = [];
    if (start !== null) {
      const deps = t.after.map((a) => time(byId.get(a)?.endedAt)).filter((x) => x !== null);
      const ready = deps.length ? Math.max(...deps) : Number.isFinite(start0) ? start0 : null;
      if (ready !== null && ready < start) segments.push(segment("wait", ready, start));
    }
    if (start !== null && end !== null && end > start) {
      let at = start;
      for (const i of intervals(t.transitions, end)) {
        const a = Math.max(i.start, at);
        const b = Math.min(i.end, end);
        if (b <= a) continue;
        if (a > at) segments.push(segment("setup", at, a));
        segments.push(segment(KIND_OF[i.status] ?? "run", a, b));
        at = b;
      }
      // Task time its run's statuses do not cover (a run not readable, or the coordinator's own work).
      if (at < end) segments.push(segment("run", at, end));
    }
    out.set(t.id, merged(segments));
  }
  return out;
}

/** Neighbouring segments of one kind become one. */
function merged(list: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of list) {
    const last = out.at(-1);
    if (last && last.kind === s.kind && last.end === s.start) {
      out[out.length - 1] = segment(s.kind, time(last.start)!, time(s.end)!);
    } else out.push(s);
  }
  return out;
}

/** The most tasks that ran at the same moment. */
export function maxConcurrency(segments: ReadonlyMap<string, readonly Segment[]>): number {
  const edges: [number, number][] = [];
  for (const list of segments.values()) {
    const busy = list.filter((s) => s.kind !== "wait");
    if (busy.length === 0) continue;
    edges.push([time(busy[0].start)!, 1], [time(busy.at(-1)!.end)!, -1]);
  }
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, d] of edges) most = Math.max(most, now += d);
  return most;
}
