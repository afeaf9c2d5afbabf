/**
 * Where a job's wall time went, from its `events.jsonl` (docs/jobs.md): when its first task started, when its
 * last task ended, and the longest hand-off, from a task's end to the start of a task the coordinator launched
 * after it (what the coordinator's loop adds between tasks).
 */
export interface JobEvent {
  type: string;
  state: string;
  at: string;
}

export interface Timeline {
  /** Epoch ms of the first task's start. */
  firstStart: number;
  /** Epoch ms of the last task's end. */
  lastEnd: number;
  /** The longest gap from a task's end to the next start, in ms; 0 when every task started at once. */
  handoff: number;
}

const ENDS = new Set(["succeeded", "failed", "blocked", "cancelled"]);

export function timeline(events: readonly JobEvent[]): Timeline {
  const tasks = events.filter((e) => e.type === "task").map((e) => ({
    state: e.state,
    at: Date.parse(e.at),
  }));
  const starts = tasks.filter((e) => e.state === "running").map((e) => e.at);
  const ends = tasks.filter((e) => ENDS.has(e.state)).map((e) => e.at);
  if (!starts.length || !ends.length) throw new Error("The job's events have no task that started and ended");
  const firstStart = Math.min(...starts);
  let handoff = 0;
  for (const start of starts) {
    const before = ends.filter((end) => end <= start);
    if (before.length) handoff = Math.max(handoff, start - Math.max(...before));
  }
  return { firstStart, lastEnd: Math.max(...ends), handoff };
}
