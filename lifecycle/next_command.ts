/**
 * The command that moves a run on from its status: what `recover` prints after it, and what every refusal of
 * a verb called in the wrong phase carries as `nextCommand` (lifecycle/state_table.ts). Pure.
 */
import type { Status } from "../schemas/run_state.ts";

const NEXT: Partial<Record<Status, string>> = {
  prepared: "run",
  running: "run",
  verifying: "verify",
  selfReviewing: "self-review",
  reviewing: "approve or revise",
  approved: "approve",
  committed: "integrate",
  integrated: "report",
};

/**
 * The loop's next command for a run in `status`, or null for one that has ended with nothing left to run. A run
 * whose turn went to the fleet (`fleet`) is sent there again, not run on this machine.
 */
export function nextCommand(status: Status, runId: string, options: { fleet?: boolean } = {}): string | null {
  const verb = NEXT[status];
  if (!verb) return null;
  if (verb === "run" && options.fleet) return `spot run --id ${runId} --on fleet`;
  if (verb === "approve or revise") {
    return `spot approve --id ${runId} --review REVIEW.json --message MSG (or spot revise)`;
  }
  if (verb === "approve") return `spot approve --id ${runId} --review REVIEW.json --message MSG`;
  return `spot ${verb} --id ${runId}`;
}

/**
 * What moves on a run that a verb found in the wrong phase. A run found `running` or `revising` by a verb
 * that got its lock has no live worker turn (its owner would hold the lock): recover puts it back in the
 * phase to resume.
 */
export function movesOn(status: Status, runId: string): string | null {
  if (status === "running" || status === "revising") return `spot recover --id ${runId}`;
  return nextCommand(status, runId);
}
