/**
 * Whether `spot gc` may collect a run (its worktree and branch, or the branch a cleanup kept; the run directory
 * stays), as a pure function
 * of what was found: only an ended run, untouched for the window, that no process works on and no live job
 * still needs. Anything else is kept, with the reason and, where there is one, the command that moves it on.
 */
import type { RunOwner, Status } from "../schemas/run_state.ts";
import { TERMINAL } from "../schemas/constants.ts";
import { SpotError } from "../errors.ts";

export interface GcFacts {
  runId: string;
  status: Status;
  origin?: string;
  awaitingJob?: string;
  owner?: RunOwner;
  updatedAt: string;
  cleanedAt: string | null;
  /** Cleaned before, its worker branch is still there (`spot cleanup` keeps a failed or blocked run's). */
  branchLeft?: boolean;
  /** A process holds the run's lock now. */
  locked: boolean;
  /** The run belongs to a job whose coordinator runs. */
  jobCoordinatorAlive: boolean;
}

export type GcDecision =
  | { kind: "collect" }
  /** Cleaned before: nothing of it is left to remove. */
  | { kind: "clean" }
  | { kind: "retain"; reason: string; nextCommand?: string };

/** The default window: a week keeps last week's runs for a look at their worktrees. */
export const DEFAULT_OLDER_THAN = "7d";

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };
/** Ten years: a bound that catches a typo (a timestamp) and nothing a person means. */
const MAX_MS = 3650 * UNITS.d;

/** `--older-than`: `30m`, `12h`, `7d`, or a bare number of days; 0 collects every ended run. */
export function parseAge(text: string): number {
  const m = /^(\d+)([mhd]?)$/.exec(text.trim());
  const ms = m ? Number(m[1]) * UNITS[m[2] || "d"] : NaN;
  if (Number.isSafeInteger(ms) && ms <= MAX_MS) return ms;
  throw new SpotError(
    "CLI_USAGE",
    `Cannot read "${text}" as an age: expected a whole number of minutes, hours or days (30m, 12h, 7d)`,
  );
}

export function decideGc(
  f: GcFacts,
  options: { now: number; olderThanMs: number; olderThan: string },
): GcDecision {
  const retain = (reason: string, nextCommand?: string): GcDecision => ({
    kind: "retain",
    reason,
    ...(nextCommand ? { nextCommand } : {}),
  });
  if (f.origin) return retain("the original pi-worker wrote it, and spot only reads such runs");
  // A cleaned run whose branch `spot cleanup` kept is judged like any other: past the window, the branch goes.
  if (f.cleanedAt && !f.branchLeft) return { kind: "clean" };
  if (f.locked) return retain("RUN_LOCKED: a process is working on it now");
  if (f.awaitingJob) {
    return retain(
      `its builder work waits for job ${f.awaitingJob} to integrate it`,
      `spot job integrate ${f.awaitingJob}`,
    );
  }
  if (!TERMINAL.has(f.status)) {
    return retain(`it is ${f.status}, not ended`, `spot discard --id ${f.runId}`);
  }
  if (f.owner?.kind === "job" && f.jobCoordinatorAlive) {
    return retain(`its job ${f.owner.jobId} is running (its coordinator is alive)`);
  }
  const updated = Date.parse(f.updatedAt);
  if (!Number.isFinite(updated)) return retain(`its updatedAt "${f.updatedAt}" is not a time`);
  if (options.now - updated < options.olderThanMs) {
    return retain(`it changed at ${f.updatedAt}, less than ${options.olderThan} ago`);
  }
  return { kind: "collect" };
}
