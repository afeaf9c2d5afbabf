/**
 * Whether `spot job gc` may collect a job, from what its directory says, before any of its runs is looked at:
 * settled, no coordinator, untouched for the window, and no apply-mode integration that could still be rolled
 * back. The runs are judged after (cleanup_plan.ts); one retained run keeps the whole job.
 */
import type { JobStatus } from "../store.ts";

const DAY_MS = 86_400_000;
/** The default window: a week keeps last week's jobs for `status`, `rollback` and a look at the worktrees. */
export const DEFAULT_OLDER_THAN_DAYS = 7;

export interface JobFacts {
  status: JobStatus;
  updatedAt: string;
  coordinatorAlive: boolean;
  coordinatorPid?: number;
  /** The apply-mode journal's state and time, when the job has one. */
  journal?: { state: "applying" | "applied" | "rolled-back"; at: string };
}

/** Why the job stays, or null when it may be collected (its runs permitting). */
export function gcHold(f: JobFacts, options: { now: number; olderThanDays: number }): string | null {
  const window = options.olderThanDays * DAY_MS;
  if (f.coordinatorAlive) {
    return `its coordinator is running${f.coordinatorPid ? ` (pid ${f.coordinatorPid})` : ""}`;
  }
  if (f.status !== "succeeded" && f.status !== "failed" && f.status !== "cancelled") {
    return `it is ${f.status}, not settled`;
  }
  const updated = Date.parse(f.updatedAt);
  if (!Number.isFinite(updated)) return `its updatedAt "${f.updatedAt}" is not a time`;
  if (options.now - updated < window) {
    return `it changed at ${f.updatedAt}, less than ${options.olderThanDays} days ago`;
  }
  if (f.journal?.state === "applying") {
    // Written before the first file and never finished: the before/ blobs are the only copy of what was there.
    return "its apply-mode integration stopped part way; its journal holds the files it replaced";
  }
  if (f.journal?.state === "applied") {
    const at = Date.parse(f.journal.at);
    if (!Number.isFinite(at) || options.now - at < window) {
      return `its apply-mode integration (${f.journal.at}) can still be rolled back (spot job rollback)`;
    }
  }
  return null;
}
