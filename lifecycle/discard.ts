/**
 * `spot discard --id RUN`: drop a run that will not be finished. Its worktree's changes are saved to the run's
 * `diff.patch` (nothing is lost: `git apply` brings them back), the worktree and its branch are removed, what a
 * killed step of it left is reclaimed, and the run ends `discarded`, freeing its run slot. Refused while a
 * process works on the run (RUN_LOCKED: stop it first), for a run that landed or succeeded (nothing to drop),
 * and for a builder waiting for its job's integration. Discarding a discarded run again changes nothing.
 */
import { isSpotError, SpotError } from "../errors.ts";
import { moveRun } from "./move.ts";
import { releaseWorktree } from "./release.ts";
import { holdsSlot } from "./slots.ts";
import { endedHint } from "./ended.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import type { Reclaimed } from "../store/ledger.ts";
import type { RunLock } from "../store/run_store.ts";

/** What `discard` did. */
export interface DiscardResult {
  /** The run. */
  runId: string;
  /** Always `discarded`. */
  status: "discarded";
  /** The status it was dropped from (`prepared`, `running`, `verifying`, `reviewing`, `failed`, ...). */
  previousStatus: string;
  /** Where the worktree's changes were saved (null when there was no worktree left to read). */
  diffFile: string | null;
  /** Bytes of the saved diff (0: the worktree changed nothing). */
  diffBytes: number;
  /** The worktree existed and is gone. */
  worktreeRemoved: boolean;
  /** The worker branch is gone. */
  branchRemoved: boolean;
  /** It held one of the `maxConcurrentRuns` slots, which is free now. */
  slotFreed: boolean;
  /** What a killed step of it had left (a pristine tree, a socket directory, a step process), removed. */
  reclaimed: Reclaimed[];
  /** It was discarded before: nothing changed. */
  alreadyDiscarded?: boolean;
}

/** The run's lock; RUN_LOCKED says who is working on it and how to stop them. */
async function lockForDiscard(ctx: SpotContext, runId: string): Promise<RunLock> {
  try {
    return await ctx.store.lock(runId);
  } catch (error) {
    if (!isSpotError(error, "RUN_LOCKED")) throw error;
    const owner = (await ctx.store.load(runId)).owner;
    const stop = owner?.kind === "agent"
      ? `spot agent discard ${owner.name} (it stops the agent first)`
      : owner?.kind === "job"
      ? `spot job cancel ${owner.jobId}, then spot discard --id ${runId}`
      : "wait for the command working on it to end, or interrupt it";
    throw new SpotError(
      "RUN_LOCKED",
      `Cannot discard run "${runId}": a process is working on it now: ${stop}`,
      { details: { runId, ...(owner ? { owner } : {}), hint: stop } },
    );
  }
}

function refuse(state: RunState): void {
  const id = state.runId;
  const ended = state.status === "integrated" || state.status === "succeeded" ? endedHint(state) : null;
  if (ended) {
    throw new SpotError(
      "STATE_INVALID",
      `Cannot discard run "${id}": ${ended.said}, and holds no slot; ${ended.hint}`,
      {
        details: {
          runId: id,
          status: state.status,
          ended: true,
          hint: `what still works on it: ${ended.commands.join(", ")}`,
          commands: ended.commands,
        },
      },
    );
  }
  if (state.awaitingJob) {
    throw new SpotError(
      "STATE_INVALID",
      `Cannot discard run "${id}": its builder work waits for job ${state.awaitingJob} to integrate it, and holds no slot`,
      {
        details: {
          runId: id,
          awaitingJob: state.awaitingJob,
          hint:
            `spot job integrate ${state.awaitingJob} lands it; spot job cleanup ${state.awaitingJob} --confirm removes it`,
        },
      },
    );
  }
}

export async function discardRun(
  ctx: SpotContext,
  runId: string,
  options: { reason?: string } = {},
): Promise<DiscardResult> {
  const lock = await lockForDiscard(ctx, runId);
  try {
    const state = await ctx.store.load(runId);
    const base = { runId, status: "discarded" as const, reclaimed: lock.reclaimed };
    if (state.status === "discarded") {
      const diff = await Deno.stat(ctx.store.file(runId, "diff.patch")).catch(() => null);
      return {
        ...base,
        previousStatus: state.transitions.at(-1)?.from ?? state.status,
        diffFile: diff ? ctx.store.file(runId, "diff.patch") : null,
        diffBytes: diff?.size ?? 0,
        worktreeRemoved: false,
        branchRemoved: false,
        slotFreed: false,
        alreadyDiscarded: true,
      };
    }
    refuse(state);
    const released = await releaseWorktree(ctx, state, { deleteBranch: true, always: true });
    const why = options.reason ?? "spot discard";
    await moveRun(ctx, state, "discarded", `discarded (${why}): its diff is kept in diff.patch`, {
      cleanedAt: ctx.now(),
    });
    return {
      ...base,
      previousStatus: state.status,
      diffFile: released.diffFile,
      diffBytes: released.diffBytes,
      worktreeRemoved: released.worktreeRemoved,
      branchRemoved: released.branchRemoved,
      slotFreed: holdsSlot(state),
    };
  } finally {
    lock.release();
  }
}
