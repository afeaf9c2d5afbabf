/**
 * Admission: a new run is counted against \`maxConcurrentRuns\` and its
 * directory, contract and first state are written under one global lock, so
 * racing prepares cannot overshoot the cap or take the same id.
 */
import { SpotError } from "../errors.ts";
import { branchExists } from "../git/repo.ts";
import type { RunState } from "../schemas/run_state.ts";
import { TERMINAL } from "../schemas/run_state.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import type { SpotContext } from "../store/context.ts";
import { writeJsonAtomic } from "../store/files.ts";
import { lockBlocking, withLock } from "../store/lock.ts";

/**
 * Whether a run takes one of the `maxConcurrentRuns` slots: any run not terminal, except one the original
 * pi-worker left (not spot's to finish) and a job builder's that succeeded and only waits for its job's
 * integration (no process runs for it; counting it would stop a job with more builders than slots).
 */
export function holdsSlot(s: Pick<RunState, "status" | "origin" | "awaitingJob">): boolean {
  return !TERMINAL.has(s.status) && !s.origin && !s.awaitingJob;
}

/** Counts and reserves under one global lock, so racing prepares cannot overshoot the cap. */
export async function admit(ctx: SpotContext, state: RunState, task: ResolvedContract): Promise<void> {
  await withLock(lockBlocking(ctx.paths.admissionLock), async () => {
    const active = (await ctx.store.all()).filter(holdsSlot);
    const max = ctx.config.maxConcurrentRuns;
    if (active.length >= max) {
      throw new SpotError(
        "CONCURRENCY_LIMIT",
        `Cannot admit run "${state.runId}": ${active.length} of ${max} run slots are busy`,
        {
          details: { active: active.map((s) => s.runId), maxConcurrentRuns: max },
        },
      );
    }
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
    await writeJsonAtomic(ctx.store.file(state.runId, "task.json"), task);
    await ctx.store.save(state);
  });
}
