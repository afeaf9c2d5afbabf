/**
 * What a run slot is for, as pure rules (docs/slots.md). `maxConcurrentRuns` bounds the runs spot itself may
 * still carry forward: each may start a worker turn (provider requests, the provider's rate limit) or checks
 * and a dependency setup (the machine's cores and memory). So a run holds a slot from admission until its
 * worker's part is done: once it waits at the parent's desk (`reviewing`, or approved and committed for
 * landing), no worker runs for it unless the parent sends it back (`revise` takes a slot again), and once it
 * ended it holds nothing. A run whose owner died while it was working is reclaimed by the next admission.
 */
import type { RunState, Status } from "../schemas/run_state.ts";
import { TERMINAL } from "../schemas/constants.ts";

/** Statuses where the worker's part is done and the run waits for the parent: no slot. */
export const AT_PARENTS_DESK: ReadonlySet<Status> = new Set(["reviewing", "approved", "committed"]);

/**
 * Whether a run takes one of the `maxConcurrentRuns` slots: any run whose worker's part is not done, except
 * one the original pi-worker left (not spot's to finish), a job builder's that succeeded and only waits for
 * its job's integration, and one whose turn runs on an executor.
 */
export function holdsSlot(s: Pick<RunState, "status" | "origin" | "awaitingJob" | "fleet">): boolean {
  return !TERMINAL.has(s.status) && !AT_PARENTS_DESK.has(s.status) && !s.origin && !s.awaitingJob &&
    !onTheFleet(s);
}

/** A run whose worker turn and checks went to an executor (docs/fleet.md): the executor's admission counts it. */
function onTheFleet(s: Pick<RunState, "status" | "fleet">): boolean {
  return s.status === "running" && s.fleet?.role === "origin";
}

/**
 * Statuses a run is in only while a process works on it: `running` (a worker turn), `revising` (a revision
 * turn), and `prepared` before its worktree is finished. Found so with nobody holding the run's lock, the
 * process that moved it there is gone (killed, or interrupted): the slot is reclaimed.
 */
export function onlyWhileWorked(s: Pick<RunState, "status" | "worktreeReady">): boolean {
  return s.status === "running" || s.status === "revising" || (s.status === "prepared" && !s.worktreeReady);
}

/** The failure code of a run reclaimed from a dead owner; `spot recover` resumes it. */
export const OWNER_GONE = "OWNER_GONE";

/**
 * Whether a run's turn was cut short and ended failed with the phase it was in on record: reclaimed from a
 * dead owner (OWNER_GONE), or interrupted by a signal its own process caught (WORKER_INTERRUPTED). `spot
 * recover` resumes either from that phase.
 */
export function cutShort(s: Pick<RunState, "status" | "failure">): boolean {
  const code = s.failure?.code;
  return s.status === "failed" && (code === OWNER_GONE || code === "WORKER_INTERRUPTED");
}

/** One run holding a slot, as the CONCURRENCY_LIMIT error lists it. */
export interface SlotHolder {
  runId: string;
  status: Status;
  /** Since when it is in that status. */
  since: string;
  /** A named agent or a job drives it (else the parent's commands do). */
  owner?: RunState["owner"];
  /** A process holds the run's lock now: it is being worked on. */
  working: boolean;
  /** The command that moves it on to where it holds no slot. */
  next: string | null;
  /** The command that frees its slot now. */
  free: string;
}

const NEXT: Partial<Record<Status, (id: string) => string>> = {
  prepared: (id) => `spot run --id ${id}`,
  verifying: (id) => `spot verify --id ${id}`,
  selfReviewing: (id) => `spot self-review --id ${id}`,
};

/** How a holder's slot is freed, from what it is doing and who drives it. */
export function describeHolder(s: RunState, working: boolean, holderPid: number | null): SlotHolder {
  const id = s.runId;
  const owner = s.owner;
  let free = `spot discard --id ${id}`;
  if (owner?.kind === "agent") free = `spot agent discard ${owner.name}`;
  else if (owner?.kind === "job") free = `spot job cancel ${owner.jobId} (or ${free} once it is idle)`;
  else if (working) {
    free = `wait for it, or stop the process working on it${holderPid ? ` (pid ${holderPid})` : ""}`;
  }
  return {
    runId: id,
    status: s.status,
    since: s.updatedAt,
    ...(owner ? { owner } : {}),
    working,
    next: working ? null : NEXT[s.status]?.(id) ?? null,
    free,
  };
}

/** The CONCURRENCY_LIMIT message: every holder, what it is doing, and how to free it. */
export function limitMessage(runId: string, max: number, holders: SlotHolder[]): string {
  const each = holders.map((h) => {
    const who = h.owner?.kind === "agent"
      ? `, agent ${h.owner.name}`
      : h.owner?.kind === "job"
      ? `, job ${h.owner.jobId} task ${h.owner.task}`
      : "";
    const doing = h.working ? "working" : `${h.status} since ${h.since}`;
    const next = h.next ? `${h.next} moves it on; ` : "";
    return `"${h.runId}" (${doing}${who}: ${next}${h.free} frees it)`;
  });
  return `Cannot admit run "${runId}": ${holders.length} of ${max} run slots are busy: ${each.join("; ")}`;
}
