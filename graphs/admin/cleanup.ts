/**
 * `spot job cleanup JOB [--confirm]`: each task run's worktree (and its worker branch when it holds nothing to keep)
 * removed by `spot cleanup`'s own machinery, which keeps the run directory. Without --confirm it only says
 * what it would remove. Refused while the job's coordinator runs; a run that cannot be cleaned safely
 * (cleanup_plan.ts) is retained with the reason and left exactly as it was.
 */
import { isSpotError } from "../../errors.ts";
import { computeDelta } from "../../git/delta.ts";
import { worktreeOf } from "../../lifecycle/worktree.ts";
import type { SpotContext } from "../../store/context.ts";
import { cleanupRun } from "../../verbs/cleanup.ts";
import { reportRun } from "../../verbs/report.ts";
import { endTaskRun } from "../run_end.ts";
import {
  appendEvent,
  type JobState,
  loadJob,
  type StoredJob,
  taskLanded,
  type TaskRecord,
} from "../store.ts";
import { diffPaths } from "../task_run.ts";
import { decide, type Decision, type RunFacts } from "./cleanup_plan.ts";
import { assertIdleJob, holdIdleJob } from "./unlock.ts";

export interface Removed {
  task: string;
  runId: string;
  worktree: string;
  branch: string;
  branchRemoved: boolean;
}

export interface Retained {
  task: string;
  runId: string;
  reason: string;
}

interface Planned {
  facts: RunFacts;
  decision: Decision;
  worktree: string;
  branch: string;
}

/** Whether another process holds the run's lock (taken and let go at once when free). */
async function lockedByOther(ctx: SpotContext, runId: string): Promise<boolean> {
  try {
    (await ctx.store.lock(runId)).release();
    return false;
  } catch (error) {
    if (isSpotError(error, "RUN_LOCKED")) return true;
    throw error;
  }
}

async function gather(
  ctx: SpotContext,
  job: StoredJob,
  state: JobState,
  task: string,
  record: TaskRecord = state.tasks[task],
): Promise<Planned> {
  const role = job.tasks.find((t) => t.id === task)?.role ?? "unknown";
  const facts: RunFacts = {
    task,
    role,
    record,
    landed: taskLanded(state, task, record.runId),
    run: null,
    locked: false,
    now: null,
  };
  const runId = record.runId;
  const run = runId ? await ctx.store.load(runId).catch(() => null) : null;
  if (!runId || !run) return { facts, decision: decide(facts), worktree: "", branch: "" };
  facts.run = { status: run.status, cleanedAt: run.cleanedAt, diffSha256: run.diffSha256 };
  facts.locked = !run.cleanedAt && await lockedByOther(ctx, runId);
  if (!run.cleanedAt && await Deno.stat(run.worktreePath).catch(() => null)) {
    try {
      const delta = await computeDelta(await worktreeOf(run), run.workerBaseRevision, ctx.store.dir(runId));
      facts.now = { paths: diffPaths(delta.diff), diffSha256: delta.diffSha256 };
    } catch (error) {
      facts.unreadable = (error as Error).message.split("\n")[0].slice(0, 300);
    }
  }
  return { facts, decision: decide(facts), worktree: run.worktreePath, branch: run.workerBranch };
}

/** Every task run of the job with what would happen to it. */
export async function planRuns(ctx: SpotContext, job: StoredJob, state: JobState): Promise<Planned[]> {
  const out: Planned[] = [];
  for (const t of job.tasks) {
    const record = state.tasks[t.id];
    if (!record) continue;
    // The runs of earlier attempts (spot job repair, retry-launch) ended when they were replaced.
    for (const runId of record.previousRuns ?? []) {
      out.push(await gather(ctx, job, state, t.id, { state: "failed", runId }));
    }
    out.push(await gather(ctx, job, state, t.id));
  }
  return out;
}

const removedOf = (p: Planned, branchRemoved: boolean): Removed => ({
  task: p.facts.task,
  runId: p.facts.record.runId!,
  worktree: p.worktree,
  branch: p.branch,
  branchRemoved,
});

/** A run a preview would clean: its branch would go too, or stay (`branchWouldBeRemoved`). */
export interface WouldRemove {
  task: string;
  runId: string;
  worktree: string;
  branch: string;
  branchWouldBeRemoved: boolean;
}

export const wouldBe = ({ branchRemoved, ...rest }: Removed): WouldRemove => ({
  ...rest,
  branchWouldBeRemoved: branchRemoved,
});

/** The previewed outcome of a plan: what would go, and what stays with why. */
export function previewRuns(plan: Planned[]): { removed: Removed[]; retained: Retained[] } {
  const removed: Removed[] = [];
  const retained: Retained[] = [];
  for (const p of plan) {
    const d = p.decision;
    if (d.kind === "remove") removed.push(removedOf(p, d.branchRemoved));
    if (d.kind === "retain") {
      retained.push({ task: p.facts.task, runId: p.facts.record.runId!, reason: d.reason });
    }
  }
  return { removed, retained };
}

/** Carries a plan out; a run that turns out not to be cleanable after all (a lock taken since) is retained. */
export async function applyRuns(ctx: SpotContext, jobId: string, plan: Planned[]) {
  const { retained } = previewRuns(plan);
  const removed: Removed[] = [];
  for (const p of plan) {
    if (p.decision.kind !== "remove") continue;
    const runId = p.facts.record.runId!;
    try {
      if (p.decision.endRun) await endTaskRun(ctx, jobId, p.facts.role, p.facts.record);
      const run = await ctx.store.load(runId);
      // `spot cleanup` asks an integrated run for its report first, so the report is written here.
      if (
        run.status === "integrated" &&
        !(await Deno.stat(ctx.store.file(runId, "report.md")).catch(() => null))
      ) {
        await reportRun(ctx, runId);
      }
      const done = await cleanupRun(ctx, runId, { keepBranch: !p.decision.branchRemoved });
      removed.push(removedOf(p, done.retainedBranch === null));
    } catch (error) {
      const reason = isSpotError(error) ? `${error.code}: ${error.message}` : String(error);
      retained.push({ task: p.facts.task, runId, reason: reason.split("\n")[0].slice(0, 500) });
    }
  }
  return { removed, retained };
}

export async function cleanupJob(ctx: SpotContext, jobId: string, options: { confirm?: boolean } = {}) {
  const confirm = options.confirm === true;
  if (!confirm) {
    await assertIdleJob(ctx.paths, jobId, "clean up");
    const { job, state } = await loadJob(ctx.paths, jobId);
    const out = previewRuns(await planRuns(ctx, job, state));
    const next = out.removed.length ? { nextCommand: `spot job cleanup ${jobId} --confirm` } : {};
    // A preview removes nothing: what it would remove is `wouldRemove`, and `removed` stays empty.
    return {
      jobId,
      confirm,
      wouldRemove: out.removed.map(wouldBe),
      removed: [],
      retained: out.retained,
      ...next,
    };
  }
  const held = await holdIdleJob(ctx.paths, jobId, "clean up");
  try {
    const { job, state } = await loadJob(ctx.paths, jobId);
    const out = await applyRuns(ctx, jobId, await planRuns(ctx, job, state));
    if (out.removed.length) {
      await appendEvent(ctx.paths, jobId, {
        at: ctx.now(),
        type: "job",
        state: "cleaned-up",
        reason: `${out.removed.length} task worktrees removed, ${out.retained.length} retained`,
      });
    }
    return { jobId, confirm, ...out };
  } finally {
    held.release();
  }
}
