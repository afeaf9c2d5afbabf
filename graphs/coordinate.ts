/**
 * The coordinator (`spot job coordinate JOB`, hidden; started detached by `spot job start`): it holds the job,
 * asks the scheduler what to do, starts ready tasks as runs within the limits, records each task's end, and
 * exits when every task is terminal or the job is cancelled (its own limits may cancel it). A task left
 * `running` by a coordinator that died is reconciled from its run (graphs/reconcile.ts), never launched twice.
 */
import { slotHolders } from "../lifecycle/admit.ts";
import type { SpotContext } from "../store/context.ts";
import { schedule, TERMINAL } from "./schedule.ts";
import {
  appendEvent,
  cancelQueued,
  holdCoordinator,
  jobFile,
  type JobState,
  loadJob,
  type StoredJob,
  type TaskRecord,
  updateJob,
} from "./store.ts";
import { runTask } from "./task_run.ts";
import { budgetReached, shares } from "./launch/budget.ts";
import { type Resume, resumeOf } from "./reconcile.ts";
import { endTaskRun } from "./run_end.ts";
import { attemptRunId, repairInstructions } from "./repair.ts";
import { notifyJob } from "./notify.ts";
import { snapshotBase } from "./launch/base.ts";
import { allocatePorts, workspaceEnv } from "./launch/ports.ts";
import type { TaskPlacement } from "./launch/place.ts";

/** How often the coordinator looks again when nothing it started has ended (a cancel, a freed run slot). */
const TICK_MS = 500;

/** The runs that hold a slot of maxConcurrentRuns now, counted as admission counts them (lifecycle/admit.ts). */
async function activeRuns(ctx: SpotContext): Promise<Set<string>> {
  return new Set((await slotHolders(ctx)).map((s) => s.runId));
}

/** Slots left for this job: a task it started whose run is not admitted yet holds one already. */
function freeSlots(max: number, active: ReadonlySet<string>, state: JobState): number {
  const pending = Object.values(state.tasks).filter((t) =>
    t.state === "running" && t.runId && !active.has(t.runId)
  );
  return Math.max(0, max - active.size - pending.length);
}

async function record(ctx: SpotContext, jobId: string, id: string, rec: TaskRecord): Promise<void> {
  const at = ctx.now();
  await updateJob(ctx.paths, jobId, (_, state) => {
    // A task sent back to the queue (its launch found no run slot) keeps only what outlives an attempt.
    const { runId: _run, startedAt: _start, reservedUsd: _held, ...kept } = state.tasks[id];
    const next = rec.state === "queued"
      ? { ...kept, state: rec.state }
      : { ...state.tasks[id], ...rec, endedAt: at };
    return { state: { ...state, updatedAt: at, tasks: { ...state.tasks, [id]: next } } };
  });
  await appendEvent(ctx.paths, jobId, {
    at,
    type: "task",
    id,
    state: rec.state,
    reason: rec.reason,
    runId: rec.runId,
  });
}

/**
 * Takes the job, reconciling each task a dead coordinator left running from its run (graphs/reconcile.ts):
 * returns the tasks to carry on, and how; an uncertain one fails and its run ends with it.
 */
async function takeOver(ctx: SpotContext, jobId: string): Promise<Map<string, "run" | "judge" | undefined>> {
  const at = ctx.now();
  const { job, state: before } = await loadJob(ctx.paths, jobId);
  const decided = new Map<string, Resume>();
  for (const [id, t] of Object.entries(before.tasks)) {
    if (t.state !== "running" || !t.runId) continue;
    decided.set(id, resumeOf(await ctx.store.load(t.runId).catch(() => null)));
  }
  const failed: [string, TaskRecord][] = [];
  const base = before.base ?? await snapshotBase(job.cwd, jobId, {
    includeUncommitted: job.includeUncommitted,
    scratchDir: jobFile(ctx.paths, jobId, "."),
  });
  await updateJob(ctx.paths, jobId, (_, state) => {
    const tasks = { ...state.tasks };
    for (const [id, resume] of decided) {
      if (resume.mode !== "uncertain" || tasks[id].state !== "running") continue;
      tasks[id] = { ...tasks[id], state: "failed", reason: resume.reason, endedAt: at };
      failed.push([id, tasks[id]]);
    }
    const coordinator = { pid: Deno.pid, startedAt: at };
    const startedAt = state.startedAt ?? at;
    return { state: { ...state, status: "running", updatedAt: at, coordinator, startedAt, base, tasks } };
  });
  await appendEvent(ctx.paths, jobId, { at, type: "job", state: "running" });
  for (const [id, rec] of failed) {
    await appendEvent(ctx.paths, jobId, { at, type: "task", id, state: "failed", reason: rec.reason });
    const role = job.tasks.find((t) => t.id === id)?.role ?? "builder";
    await endTaskRun(ctx, jobId, role, rec).catch(() => {});
  }
  const carry = new Map<string, "run" | "judge" | undefined>();
  for (const [id, resume] of decided) {
    if (resume.mode === "launch") carry.set(id, undefined);
    else if (resume.mode === "run" || resume.mode === "judge") carry.set(id, resume.mode);
  }
  return carry;
}

/** The job's own limits: past `jobMs` since it first started, or its cost budget spent. */
function stopReason(limits: StoredJob["config"]["limits"], state: JobState, at: string): string | null {
  const ranMs = state.startedAt ? Date.parse(at) - Date.parse(state.startedAt) : 0;
  if (ranMs >= limits.jobMs) {
    return `JOB_TIMEOUT: the job ran longer than its limits.jobMs (${limits.jobMs} ms)`;
  }
  return budgetReached(limits.costUsd, state.tasks);
}

/** Applies the plan's blocks and claims its starts in one write; returns the tasks to launch. */
async function step(ctx: SpotContext, jobId: string, running: number): Promise<{
  job: StoredJob;
  state: JobState;
  start: string[];
}> {
  const active = await activeRuns(ctx);
  const at = ctx.now();
  let start: string[] = [];
  let blocked: { id: string; reason: string }[] = [];
  let stopped: string | null = null;
  const { job, state } = await updateJob(ctx.paths, jobId, (job, state) => {
    if (state.status === "cancelled") return { state };
    const limits = job.config.limits;
    stopped = stopReason(limits, state, at);
    if (stopped) return { state: cancelQueued(state, stopped, at) };
    const free = freeSlots(ctx.config.maxConcurrentRuns, active, state);
    const plan = schedule(job.tasks, state.tasks, { concurrency: limits.concurrency, freeSlots: free });
    const share = limits.costUsd === undefined ? null : shares(
      limits.costUsd,
      state.tasks,
      plan.start,
      limits.concurrency - Object.values(state.tasks).filter((t) => t.state === "running").length,
    );
    start = share ? plan.start.filter((id) => share.has(id)) : plan.start;
    blocked = plan.block;
    const tasks = { ...state.tasks };
    for (const b of plan.block) tasks[b.id] = { state: "blocked", reason: b.reason, endedAt: at };
    for (const id of start) {
      const was = state.tasks[id];
      tasks[id] = {
        ...was,
        state: "running",
        runId: attemptRunId(jobId, id, was.attempt ?? 1, was.relaunched),
        startedAt: at,
        ...(share ? { reservedUsd: share.get(id) } : {}),
      };
    }
    const settled = running === 0 && start.length === 0 &&
      job.tasks.every((t) => TERMINAL.has(tasks[t.id].state));
    const failed = job.tasks.some((t) => tasks[t.id].state !== "succeeded");
    const status = settled ? (failed ? "failed" : "succeeded") : state.status;
    // A tick that starts, blocks and settles nothing leaves the job's files alone.
    if (!start.length && !plan.block.length && status === state.status) return { state };
    return { state: { ...state, status, updatedAt: at, tasks } };
  });
  if (stopped) await appendEvent(ctx.paths, jobId, { at, type: "job", state: "cancelled", reason: stopped });
  for (const b of blocked) await appendEvent(ctx.paths, jobId, { at, type: "task", ...b, state: "blocked" });
  for (const id of start) {
    await appendEvent(ctx.paths, jobId, {
      at,
      type: "task",
      id,
      state: "running",
      runId: state.tasks[id].runId,
    });
  }
  return { job, state, start };
}

/** A task stopped by the job's end is cancelled; one stopped by its own deadline failed. */
function ended(rec: TaskRecord, job: AbortSignal, deadline: AbortSignal, taskMs: number): TaskRecord {
  if (job.aborted) return { ...rec, state: "cancelled" };
  if (!deadline.aborted) return rec;
  return {
    ...rec,
    state: "failed",
    reason: `TASK_TIMEOUT: the task ran longer than its limits.taskMs (${taskMs} ms)`,
  };
}

export async function coordinateJob(
  ctx: SpotContext,
  jobId: string,
  options: { place?: TaskPlacement } = {},
): Promise<{ jobId: string; status: string }> {
  const held = await holdCoordinator(ctx.paths, jobId);
  const abort = new AbortController();
  ctx.signal?.addEventListener("abort", () => abort.abort());
  const tctx: SpotContext = { ...ctx, signal: abort.signal, progress: undefined };
  const inflight = new Map<string, Promise<void>>();
  /** The port block each running task holds. */
  const portsHeld = new Map<string, number>();
  try {
    const carried = await takeOver(ctx, jobId);
    for (;;) {
      const { job, state, start } = await step(ctx, jobId, inflight.size + carried.size);
      if (state.status === "cancelled") abort.abort();
      // The tasks a dead coordinator left are carried on first, once; then what the scheduler starts.
      const launches: [string, "run" | "judge" | undefined][] = [
        ...carried,
        ...start.map((id) => [id, undefined] as [string, undefined]),
      ];
      carried.clear();
      for (const [id, resume] of launches) {
        const listed = job.tasks.find((t) => t.id === id)!;
        // A repaired task's new attempt is told what each repair asked.
        const task = {
          ...listed,
          instructions: [...listed.instructions, ...repairInstructions(state.tasks[id])],
        };
        const before = task.after.map((p) => ({ id: p, record: state.tasks[p] }));
        const { taskMs, maxTurns, maxToolCalls } = job.config.limits;
        const deadline = AbortSignal.timeout(taskMs);
        const ports = await allocatePorts(jobId, id, [...portsHeld.values()]);
        if (ports) portsHeld.set(id, ports.base);
        const budget = { costUsd: state.tasks[id].reservedUsd, turns: maxTurns, toolCalls: maxToolCalls };
        const done = runTask({ ...tctx, signal: AbortSignal.any([abort.signal, deadline]) }, job, task, {
          runId: state.tasks[id].runId!,
          before,
          records: state.tasks,
          budget,
          resume,
          base: state.base,
          env: workspaceEnv(jobId, id, ports),
          ...(options.place ? { place: options.place } : {}),
        })
          .then((rec) => record(ctx, jobId, id, ended(rec, abort.signal, deadline, taskMs)))
          .finally(() => {
            inflight.delete(id);
            portsHeld.delete(id);
          });
        inflight.set(id, done);
      }
      if (inflight.size === 0 && (state.status !== "running")) {
        // A coordinator that ends normally leaves no record behind (a killed one does: `unlock` clears it).
        await updateJob(ctx.paths, jobId, (_, s) => {
          if (s.coordinator?.pid !== Deno.pid) return { state: s };
          const { coordinator: _done, ...rest } = s;
          return { state: rest };
        });
        await appendEvent(ctx.paths, jobId, { at: ctx.now(), type: "job", state: state.status });
        await notifyJob(ctx, jobId).catch(() => {});
        return { jobId, status: state.status };
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        ...inflight.values(),
        new Promise((r) => timer = setTimeout(r, TICK_MS)),
      ]);
      clearTimeout(timer);
    }
  } finally {
    held.release();
  }
}
