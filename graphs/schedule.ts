/**
 * What a job does next, as a pure function of its tasks and their states: which queued tasks are ready (every
 * `after` succeeded) and may start within the job's concurrency and the free run slots, which can never run
 * (a predecessor did not succeed: they end blocked, with the reason), and whether the job is settled.
 */
export const TASK_STATES = ["queued", "running", "succeeded", "failed", "blocked", "cancelled"] as const;
export type TaskStateName = typeof TASK_STATES[number];
export const TERMINAL: ReadonlySet<TaskStateName> = new Set(["succeeded", "failed", "blocked", "cancelled"]);

export interface TaskStatus {
  state: TaskStateName;
  reason?: string;
}

export interface Plan {
  /** Ready tasks to start now, in the job's order. */
  start: string[];
  /** Queued tasks that can never run, with why. */
  block: { id: string; reason: string }[];
  /** Every task is terminal (after the blocks above). */
  settled: boolean;
  /** Settled, and some task did not succeed. */
  failed: boolean;
}

export interface ScheduleLimits {
  /** The job's `limits.concurrency`. */
  concurrency: number;
  /** Run slots free under the config's maxConcurrentRuns (other runs on the machine count). */
  freeSlots: number;
}

export function schedule(
  tasks: readonly { id: string; after: readonly string[] }[],
  states: Readonly<Record<string, TaskStatus>>,
  limits: ScheduleLimits,
): Plan {
  const now: Record<string, TaskStatus> = { ...states };
  const block: Plan["block"] = [];
  // A block can unblock nothing, but it can block more: repeat until nothing changes (a chain a -> b -> c).
  for (let changed = true; changed;) {
    changed = false;
    for (const t of tasks) {
      if (now[t.id]?.state !== "queued") continue;
      const dead = t.after.find((p) => TERMINAL.has(now[p]?.state) && now[p].state !== "succeeded");
      if (dead === undefined) continue;
      const why = now[dead].reason ? `: ${now[dead].reason}` : "";
      const reason = `after "${dead}" ${now[dead].state}${why}`;
      now[t.id] = { state: "blocked", reason };
      block.push({ id: t.id, reason });
      changed = true;
    }
  }
  const running = tasks.filter((t) => now[t.id]?.state === "running").length;
  const room = Math.max(0, Math.min(limits.concurrency - running, limits.freeSlots));
  const start = tasks
    .filter((t) => now[t.id]?.state === "queued" && t.after.every((p) => now[p]?.state === "succeeded"))
    .slice(0, room)
    .map((t) => t.id);
  const settled = tasks.every((t) => TERMINAL.has(now[t.id]?.state));
  return { start, block, settled, failed: settled && tasks.some((t) => now[t.id].state !== "succeeded") };
}
