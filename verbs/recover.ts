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
import { nextCommand } from "../lifecycle/next_command.ts";
import { withSlotFor } from "../lifecycle/admit.ts";
import { cutShort } from "../lifecycle/slots.ts";
import type { Reclaimed } from "../store/ledger.ts";

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
  /** What the killed command had left (a pristine tree, a socket directory, a step process), removed. */
  reclaimed: Reclaimed[];
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

/** The phase a run reclaimed from its dead owner or interrupted was in (lifecycle/slots.ts), or its own status. */
function phaseOf(state: RunState): Status {
  if (!cutShort(state)) return state.status;
  const phase = (state.failure?.details as { phase?: Status } | undefined)?.phase;
  return phase === "running" || phase === "revising" || phase === "prepared" ? phase : state.status;
}

async function rebuildWorktree(ctx: SpotContext, state: RunState): Promise<RunState> {
  await git(["worktree", "remove", "--force", state.worktreePath], {
    cwd: state.sourceRoot,
    allowFailure: true,
  });
  await git(["worktree", "prune"], { cwd: state.sourceRoot, allowFailure: true });
  await git(["branch", "-D", state.workerBranch], { cwd: state.sourceRoot, allowFailure: true });
  return await materializeWorktree(ctx, state);
}

/** Where the run goes back to, and why; the worktree of an unfinished prepare is rebuilt on the way. */
async function decide(ctx: SpotContext, state: RunState): Promise<{ to: Status; reason: string } | null> {
  const phase = phaseOf(state);
  if (phase === "prepared" && !state.worktreeReady) {
    return { to: "prepared", reason: "rebuilt the unfinished worktree" };
  }
  if (phase === "running") {
    const to = (await worktreeChanged(ctx, state, null)) ? "verifying" : "prepared";
    return {
      to,
      reason: to === "verifying"
        ? "the interrupted worker left changes to verify"
        : "the interrupted worker changed nothing",
    };
  }
  if (phase === "revising") {
    const to = (await worktreeChanged(ctx, state, state.diffSha256)) ? "verifying" : "reviewing";
    return {
      to,
      reason: to === "verifying"
        ? "the interrupted revision left changes to verify"
        : "the interrupted revision changed nothing",
    };
  }
  if (state.status === "failed" && RESUMABLE_FAILURES.has(state.failure?.code ?? "")) {
    // A provider wall ended the worker's turn; whatever it wrote is kept and judged, not thrown away.
    // A revise turn that hit the wall goes back to review, not to a fresh implementation turn.
    const revising = state.revisionRound > 0;
    const changed = await worktreeChanged(ctx, state, revising ? state.diffSha256 : null);
    return {
      to: changed ? "verifying" : revising ? "reviewing" : "prepared",
      reason: `the ${state.failure?.code} failure is over: ${
        changed ? "verify the partial work" : "try again"
      }`,
    };
  }
  return null;
}

export async function recoverRun(ctx: SpotContext, runId: string): Promise<RecoverResult> {
  const lock = await ctx.store.lock(runId);
  try {
    let state = await ctx.store.load(runId);
    const reaped = await reapLeftovers(ctx, runId);
    const from = state.status;
    const phase = phaseOf(state);
    const decided = await decide(ctx, state);
    const to = decided?.to ?? from;
    const reason = decided?.reason ??
      (reaped ? `ended ${reaped} leftover process group(s)` : "nothing was left running");
    if (to !== from) {
      // A run leaving an end (its slot reclaimed, a provider wall) takes a slot again where it needs one.
      const left = state;
      state = await withSlotFor(
        ctx,
        left,
        to,
        async () => await ctx.store.save(recoverTransition(left, to, reason, ctx.now())),
      );
    }
    if (phase === "prepared" && !state.worktreeReady) {
      state = await rebuildWorktree(ctx, state);
    }
    const recovered = decided !== null || reaped > 0 || state.interruption !== null ||
      lock.reclaimed.length > 0;
    const next = nextCommand(state.status, runId, { fleet: state.fleet?.role === "origin" });
    state = await ctx.store.save({
      ...state,
      interruption: null,
      failure: to !== from ? null : state.failure,
      recovery: { at: ctx.now(), from, to: state.status, reason, nextCommand: next },
    });
    if (to !== from) {
      await ctx.store.event(runId, { type: "transition", from, to, reason: `recover: ${reason}` });
    }
    return { runId, status: state.status, recovered, reason, nextCommand: next, reclaimed: lock.reclaimed };
  } finally {
    lock.release();
  }
}
