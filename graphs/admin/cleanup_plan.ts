/**
 * Whether one task's run may lose its worktree (`spot job cleanup`, `spot job gc`), as a pure function of what
 * was found. A run is removed only when nothing of value goes with it: no process holds it, its task is over,
 * a builder's work landed and was not rolled back (or its task did not succeed), and its worktree holds nothing beyond what
 * spot recorded. Anything else is retained, with the reason.
 */
import type { Status } from "../../schemas/run_state.ts";
import { TERMINAL as RUN_TERMINAL } from "../../schemas/constants.ts";
import { TERMINAL } from "../schedule.ts";
import type { TaskRecord } from "../store.ts";

export interface RunFacts {
  task: string;
  role: string;
  record: TaskRecord;
  /** The run's work is part of the job's landing that stands (`spot job integrate` landed it, not rolled back). */
  landed: boolean;
  /** The run's state; null when it cannot be read. */
  run: { status: Status; cleanedAt: string | null; diffSha256: string | null } | null;
  /** Another process holds the run's lock. */
  locked: boolean;
  /** What the worktree changes against the run's base now; null when the worktree is already gone. */
  now: { paths: string[]; diffSha256: string } | null;
  /** Set when the worktree could not be read (git failed on it). */
  unreadable?: string;
}

export type Decision =
  /** No run, or one already cleaned: nothing to do. */
  | { kind: "skip" }
  /** `endRun`: the run is not terminal yet; it ends with its task first (as the coordinator would have). */
  | { kind: "remove"; endRun: boolean; branchRemoved: boolean }
  | { kind: "retain"; reason: string };

/** What the worktree changes that spot did not record: a verified run by digest, any other by path. */
export function unrecorded(facts: Pick<RunFacts, "record" | "run" | "now">): string[] | null {
  const { now, run, record } = facts;
  if (!now) return null;
  if (run?.diffSha256) return now.diffSha256 === run.diffSha256 ? null : now.paths;
  const known = new Set(record.changedFiles ?? []);
  const extra = now.paths.filter((p) => !known.has(p));
  return extra.length ? extra : null;
}

export function decide(f: RunFacts): Decision {
  if (!f.record.runId) return { kind: "skip" };
  const retain = (reason: string): Decision => ({ kind: "retain", reason });
  if (!f.run) return retain("its run cannot be read");
  if (f.run.cleanedAt) return { kind: "skip" };
  if (f.locked) return retain("RUN_LOCKED: another process is working on the run");
  const state = f.record.state;
  if (!TERMINAL.has(state)) return retain(`its task is ${state}`);
  const succeeded = state === "succeeded";
  if (f.role === "builder" && succeeded && !f.landed) {
    return retain(
      "its builder work succeeded but is not landed (spot job integrate lands it; cleaning would lose it)",
    );
  }
  const finished = RUN_TERMINAL.has(f.run.status);
  if (!finished && f.role === "builder" && succeeded) {
    return retain(`its run is ${f.run.status}, not integrated`);
  }
  if (f.unreadable) return retain(`its worktree cannot be read: ${f.unreadable}`);
  const extra = unrecorded(f);
  if (extra) {
    return retain(`its worktree has changes spot did not record: ${extra.slice(0, 10).join(", ")}`);
  }
  // A branch goes only when it holds nothing to keep: a read-only task that succeeded (its run ends
  // `succeeded`, its worktree unchanged) or a builder whose work stands in the job's landing. A builder's run
  // that ended `integrated` but no longer stands (rolled back, then replaced by a repair) keeps its branch,
  // where its commit is; so does every run that failed, was blocked or cancelled (`spot cleanup`'s rule).
  const ends: Status = finished ? f.run.status : succeeded ? "succeeded" : "failed";
  const branchRemoved = ends === "succeeded" || (ends === "integrated" && f.landed);
  return { kind: "remove", endRun: !finished, branchRemoved };
}
