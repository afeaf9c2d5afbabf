/**
 * The run lifecycle as a pure table. The orchestrator decides *when* to move;
 * this module decides *whether* a move is legal and records it.
 */
import { SpotError } from "../errors.ts";
import type { RunState, Status } from "../schemas/run_state.ts";
import { endedHint } from "./ended.ts";
import { movesOn } from "./next_command.ts";
import { TERMINAL } from "../schemas/constants.ts";

/**
 * Every run that has not landed or succeeded may be dropped (`discarded`, `spot discard`): a failed or
 * blocked run too, whose work would otherwise wait on its branch for ever. `succeeded` is reached only by
 * `finishTurnTransition`, never by a forward move.
 */
const FORWARD: Readonly<Record<Status, readonly Status[]>> = {
  prepared: ["running", "failed", "blocked", "discarded"],
  running: ["verifying", "failed", "blocked", "discarded"],
  verifying: ["selfReviewing", "reviewing", "failed", "blocked", "discarded"],
  selfReviewing: ["reviewing", "failed", "blocked", "discarded"],
  reviewing: ["revising", "approved", "failed", "blocked", "discarded"],
  // Back to review when a revision turn changed nothing: the verified diff and its checks still hold.
  revising: ["verifying", "reviewing", "failed", "blocked", "discarded"],
  approved: ["committed", "failed", "blocked", "discarded"],
  committed: ["integrated", "blocked", "discarded"],
  integrated: [],
  succeeded: [],
  failed: ["discarded"],
  blocked: ["discarded"],
  discarded: [],
};

/** Moves only `recover` may make, back into a resumable phase. */
const RECOVERY: Readonly<Partial<Record<Status, readonly Status[]>>> = {
  running: ["prepared", "verifying"],
  revising: ["verifying", "reviewing"],
  verifying: ["verifying"],
  selfReviewing: ["selfReviewing"],
  failed: ["prepared", "verifying", "reviewing"],
};

/**
 * The one move back a named agent's follow-up turn makes (`spot agent send`): a run whose worker turn
 * finished, not yet verified, goes back to running for another turn in the same worktree.
 */
const FOLLOW_UP: Readonly<Partial<Record<Status, readonly Status[]>>> = {
  verifying: ["running"],
  // A brief's turn ends its run `succeeded`; a follow-up turn takes it up again in the same worktree.
  succeeded: ["running"],
};

export function canTransition(from: Status, to: Status): boolean {
  return FORWARD[from].includes(to);
}

export function canRecover(from: Status, to: Status): boolean {
  return RECOVERY[from]?.includes(to) ?? false;
}

/** Moves into these keep the run's failure and interruption on record; any other move clears them. */
const KEEPS_TROUBLE: ReadonlySet<Status> = new Set(["failed", "blocked", "discarded"]);

function apply(state: RunState, to: Status, reason: string, at: string): RunState {
  const leavesTrouble = !KEEPS_TROUBLE.has(to);
  return {
    ...state,
    status: to,
    updatedAt: at,
    transitions: [...state.transitions, { from: state.status, to, at, reason }],
    failure: leavesTrouble ? null : state.failure,
    interruption: leavesTrouble ? null : state.interruption,
  };
}

/** The state after a legal forward move; throws STATE_INVALID otherwise. */
export function transition(state: RunState, to: Status, reason: string, at: string): RunState {
  if (!canTransition(state.status, to)) {
    throw new SpotError(
      "STATE_INVALID",
      `Cannot move run "${state.runId}" from ${state.status} to ${to}: the lifecycle does not allow it`,
      { details: { runId: state.runId, from: state.status, to, ...next(state) } },
    );
  }
  return apply(state, to, reason, at);
}

/** The state after a follow-up turn's move; throws STATE_INVALID otherwise. */
export function followUpTransition(state: RunState, reason: string, at: string): RunState {
  if (!FOLLOW_UP[state.status]?.includes("running")) {
    throw new SpotError(
      "STATE_INVALID",
      `Cannot send a follow-up turn to run "${state.runId}": it is ${state.status}, and a follow-up needs verifying or succeeded (a finished worker turn nobody has verified yet, or a brief's)`,
      { details: { runId: state.runId, status: state.status, allowed: ["verifying", "succeeded"] } },
    );
  }
  return apply(state, "running", reason, at);
}

/**
 * The one move into `succeeded`: a turn whose answer is the result and that has nothing to land ended well (a
 * job's read-only task: a scout, planner, reviewer or research run, docs/jobs.md; a brief agent's turn,
 * docs/agents.md). Nothing is reviewed or integrated; the run ends, freeing its slot.
 */
export function finishTurnTransition(state: RunState, reason: string, at: string): RunState {
  if (state.status !== "verifying") {
    throw new SpotError(
      "STATE_INVALID",
      `Cannot finish run "${state.runId}" with nothing to integrate: it is ${state.status}, not verifying`,
      { details: { runId: state.runId, status: state.status, allowed: ["verifying"], ...next(state) } },
    );
  }
  return apply(state, "succeeded", reason, at);
}

/** The state after a recovery move; throws STATE_INVALID otherwise. */
export function recoverTransition(state: RunState, to: Status, reason: string, at: string): RunState {
  if (!canRecover(state.status, to)) {
    throw new SpotError(
      "STATE_INVALID",
      `Cannot recover run "${state.runId}" from ${state.status} to ${to}`,
      { details: { runId: state.runId, from: state.status, to } },
    );
  }
  return apply(state, to, `recover: ${reason}`, at);
}

/**
 * Throws STATE_INVALID unless the run is in one of `allowed`. For an ended run the error says how it ended and
 * what still works on it (lifecycle/ended.ts), never a step of the loop that could not move it on.
 */
export function requireStatus(state: RunState, allowed: readonly Status[], command: string): void {
  if (allowed.includes(state.status)) return;
  const ended = endedHint(state);
  if (ended) {
    throw new SpotError(
      "STATE_INVALID",
      `Cannot ${command} run "${state.runId}": ${ended.said}; ${ended.hint}`,
      {
        details: {
          runId: state.runId,
          status: state.status,
          allowed,
          ended: true,
          hint: `what still works on it: ${ended.commands.join(", ")}`,
          commands: ended.commands,
        },
      },
    );
  }
  throw new SpotError(
    "STATE_INVALID",
    `Cannot ${command} run "${state.runId}": it is ${state.status}, and ${command} needs ${
      allowed.join(" or ")
    }`,
    { details: { runId: state.runId, status: state.status, allowed, ...next(state) } },
  );
}

/** The command that moves the run on from where it is, for a refusal's details (none for an ended run). */
function next(state: RunState): { nextCommand?: string } {
  const command = TERMINAL.has(state.status) ? null : movesOn(state.status, state.runId);
  return command ? { nextCommand: command } : {};
}
