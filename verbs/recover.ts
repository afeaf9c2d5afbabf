/**
 * `recover`: after a crash or kill, put the run back in the exact phase the
 * interrupted command left and say which command comes next. Leftover step
 * processes of that command are ended first; a live lock is never stolen.
 */
import { computeDelta } from "../git/delta.ts";
import { git } from "../git/git.ts";
import { killGroup, processAlive } from "../sandbox/spawn.ts";
import type { RunState, Status } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { materializeWorktree, worktreeOf } from "../lifecycle/worktree.ts";
import { RESUMABLE_FAILURES } from "../lifecycle/outcome.ts";
import { recoverTransition } from "../lifecycle/state_table.ts";

/** What `recover` did to a run. */
export interface RecoverResult {
  /** The run. */
  runId: string;
  /** Its status afterwards. */
  status: string;
  /** Whether it was moved back to a phase to resume (false: nothing to recover). */
  recovered: boolean;
  /** Why, in words. */
  reason: string;
  /** The command to run next, or null when there is none. */
  nextCommand: string | null;
}

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

function nextCommand(status: Status, runId: string): string | null {
  const verb = NEXT[status];
  if (!verb) return null;
  if (verb === "approve or revise") {
    return `spot approve --id ${runId} --review REVIEW.json --message MSG (or spot revise)`;
  }
  if (verb === "approve") return `spot approve --id ${runId} --review REVIEW.json --message MSG`;
  return `spot ${verb} --id ${runId}`;
}

/** Ends the step (and the worker it started) that a killed command left behind. */
async function reapLeftovers(ctx: SpotContext, runId: string): Promise<number> {
  const active = await ctx.store.readJson<{ pid?: number; childPid?: number }>(runId, "active-step.json");
  let reaped = 0;
  for (const pid of [active?.childPid, active?.pid]) {
    if (pid && processAlive(pid) && killGroup(pid, "SIGKILL")) reaped++;
  }
  await Deno.remove(ctx.store.file(runId, "active-step.json")).catch(() => {});
  return reaped;
}

async function worktreeChanged(ctx: SpotContext, state: RunState, against: string | null): Promise<boolean> {
  const delta = await computeDelta(
    await worktreeOf(state),
    state.workerBaseRevision,
    ctx.store.dir(state.runId),
  );
  return against === null ? delta.diff.length > 0 : delta.diffSha256 !== against;
}

export async function recoverRun(ctx: SpotContext, runId: string): Promise<RecoverResult> {
  const lock = await ctx.store.lock(runId);
  try {
    let state = await ctx.store.load(runId);
    const reaped = await reapLeftovers(ctx, runId);
    const from = state.status;
    let to: Status = from;
    let reason = reaped ? `ended ${reaped} leftover process group(s)` : "nothing was left running";
    if (from === "prepared" && !state.worktreeReady) {
      await git(["worktree", "remove", "--force", state.worktreePath], {
        cwd: state.sourceRoot,
        allowFailure: true,
      });
      await git(["worktree", "prune"], { cwd: state.sourceRoot, allowFailure: true });
      await git(["branch", "-D", state.workerBranch], { cwd: state.sourceRoot, allowFailure: true });
      state = await materializeWorktree(ctx, state);
      reason = "rebuilt the unfinished worktree";
    } else if (from === "running") {
      to = (await worktreeChanged(ctx, state, null)) ? "verifying" : "prepared";
      reason = to === "verifying"
        ? "the interrupted worker left changes to verify"
        : "the interrupted worker changed nothing";
    } else if (from === "failed" && RESUMABLE_FAILURES.has(state.failure?.code ?? "")) {
      // A provider wall ended the worker's turn; whatever it wrote is kept and judged, not thrown away.
      // A revise turn that hit the wall goes back to review, not to a fresh implementation turn.
      const revising = state.revisionRound > 0;
      const changed = await worktreeChanged(ctx, state, revising ? state.diffSha256 : null);
      to = changed ? "verifying" : revising ? "reviewing" : "prepared";
      reason = `the ${state.failure?.code} failure is over: ${
        changed ? "verify the partial work" : "try again"
      }`;
    } else if (from === "revising") {
      to = (await worktreeChanged(ctx, state, state.diffSha256)) ? "verifying" : "reviewing";
      reason = to === "verifying"
        ? "the interrupted revision left changes to verify"
        : "the interrupted revision changed nothing";
    }
    const recovered = to !== from || reaped > 0 || state.interruption !== null;
    if (to !== from) state = recoverTransition(state, to, reason, ctx.now());
    const next = nextCommand(state.status, runId);
    state = await ctx.store.save({
      ...state,
      interruption: null,
      failure: to !== from ? null : state.failure,
      recovery: { at: ctx.now(), from, to: state.status, reason, nextCommand: next },
    });
    if (to !== from) {
      await ctx.store.event(runId, { type: "transition", from, to, reason: `recover: ${reason}` });
    }
    return { runId, status: state.status, recovered, reason, nextCommand: next };
  } finally {
    lock.release();
  }
}
