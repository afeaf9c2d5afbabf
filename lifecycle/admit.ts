/**
 * Admission: a new run is counted against `maxConcurrentRuns` and its directory, contract and first state are
 * written under one global lock, so racing prepares cannot overshoot the cap or take the same id. Before
 * counting, a slot whose owner died while working (lifecycle/slots.ts) is reclaimed: that run ends `failed`
 * with OWNER_GONE, and `spot recover` can resume it (taking a slot again).
 */
import { SpotError } from "../errors.ts";
import { branchExists } from "../git/repo.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import type { SpotContext } from "../store/context.ts";
import { writeJsonAtomic } from "../store/files.ts";
import { type HeldLock, holderPid, lockBlocking, probeRunLock, tryLockRun, withLock } from "../store/lock.ts";
import { moveRun } from "./move.ts";
import {
  describeHolder,
  holdsSlot,
  limitMessage,
  onlyWhileWorked,
  OWNER_GONE,
  type SlotHolder,
} from "./slots.ts";

export { holdsSlot } from "./slots.ts";

/** Ends a run its owner left working, if nobody holds its lock; true when its slot was reclaimed. */
async function reclaimIfStranded(ctx: SpotContext, state: RunState, by: string): Promise<boolean> {
  const lock = await probeRunLock(ctx.store.file(state.runId, ".lock"));
  if (!lock) return false;
  try {
    const now = await ctx.store.load(state.runId);
    if (!holdsSlot(now) || !onlyWhileWorked(now)) return !holdsSlot(now);
    const phase = now.status === "prepared"
      ? "prepare"
      : now.status === "revising"
      ? "revision turn"
      : "worker turn";
    const message = `the process running its ${phase} is gone (killed or interrupted); ` +
      `run "${by}" reclaimed its slot: spot recover --id ${now.runId} resumes it`;
    await ctx.store.reclaim(now.runId);
    await moveRun(ctx, now, "failed", `${OWNER_GONE}: ${message}`, {
      failure: {
        code: OWNER_GONE,
        message,
        details: { phase: now.status, reclaimedBy: by, nextCommand: `spot recover --id ${now.runId}` },
      },
    });
    return true;
  } finally {
    lock.release();
  }
}

/**
 * The runs holding slots now, after reclaiming those whose owner is gone; `except` is left out (a run taking
 * its own slot back). Call under the admission lock.
 */
async function holders(ctx: SpotContext, by: string, except?: string): Promise<RunState[]> {
  const out: RunState[] = [];
  for (const s of (await ctx.store.live()).filter(holdsSlot)) {
    if (s.runId === except) continue;
    if (onlyWhileWorked(s) && await reclaimIfStranded(ctx, s, by).catch(() => false)) continue;
    out.push(s);
  }
  return out;
}

/**
 * The runs holding slots as the next admission will count them, without changing any: a run whose owner is
 * gone is left out, since that admission reclaims its slot (a job's coordinator plans its launches on this).
 */
export async function slotHolders(ctx: SpotContext): Promise<RunState[]> {
  const out: RunState[] = [];
  for (const s of (await ctx.store.live()).filter(holdsSlot)) {
    if (onlyWhileWorked(s)) {
      const glance = await probeRunLock(ctx.store.file(s.runId, ".lock")).catch(() => null);
      glance?.release();
      if (glance) continue;
    }
    out.push(s);
  }
  return out;
}

async function refuseWhenFull(ctx: SpotContext, runId: string, active: RunState[]): Promise<void> {
  const max = ctx.config.maxConcurrentRuns;
  if (active.length < max) return;
  const listed: SlotHolder[] = [];
  for (const s of active) {
    const path = ctx.store.file(s.runId, ".lock");
    const probe = await probeRunLock(path).catch(() => null);
    probe?.release();
    listed.push(describeHolder(s, probe === null, probe === null ? holderPid(path) : null));
  }
  throw new SpotError("CONCURRENCY_LIMIT", limitMessage(runId, max, listed), {
    details: { active: active.map((s) => s.runId), maxConcurrentRuns: max, holders: listed },
  });
}

/**
 * Counts and reserves under one global lock, so racing prepares cannot overshoot the cap. Returns the new
 * run's lock, taken before the admission lock is let go: a run half-prepared is never taken for a stranded one.
 */
export async function admit(ctx: SpotContext, state: RunState, task: ResolvedContract): Promise<HeldLock> {
  return await withLock(lockBlocking(ctx.paths.admissionLock), async () => {
    await refuseWhenFull(ctx, state.runId, await holders(ctx, state.runId));
    if (await branchExists(task.repositoryRoot, state.workerBranch)) {
      throw new SpotError(
        "RUN_EXISTS",
        `Cannot prepare run "${state.runId}": branch ${state.workerBranch} already exists`,
      );
    }
    try {
      await Deno.mkdir(ctx.store.dir(state.runId), { mode: 0o700 });
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) {
        throw new SpotError(
          "RUN_EXISTS",
          `Cannot prepare run "${state.runId}": a run with this id already exists`,
        );
      }
      throw error;
    }
    const lock = await tryLockRun(ctx.store.file(state.runId, ".lock"), state.runId);
    try {
      await writeJsonAtomic(ctx.store.file(state.runId, "task.json"), task);
      await ctx.store.save(state);
    } catch (error) {
      lock.release();
      throw error;
    }
    return lock;
  });
}

/**
 * A run that held no slot takes one again (a revision turn after review, a follow-up turn of a finished
 * brief, a recovered run): `move` runs under the admission lock once a slot is free, or CONCURRENCY_LIMIT.
 */
export async function readmit<T>(ctx: SpotContext, runId: string, move: () => Promise<T>): Promise<T> {
  return await withLock(lockBlocking(ctx.paths.admissionLock), async () => {
    await refuseWhenFull(ctx, runId, await holders(ctx, runId, runId));
    return await move();
  });
}

/** Runs `move` (which takes `state` to `to`), readmitted first when that move takes a slot the run lacks. */
export async function withSlotFor<T>(
  ctx: SpotContext,
  state: RunState,
  to: RunState["status"],
  move: () => Promise<T>,
): Promise<T> {
  if (holdsSlot(state) || !holdsSlot({ ...state, status: to })) return await move();
  return await readmit(ctx, state.runId, move);
}
