/**
 * `spot job repair JOB ID TEXT` and `spot job retry-launch JOB ID`: the parent sends a task back.
 *
 * A repair starts a new attempt of a failed, blocked or succeeded task, told the parent's text and how its
 * last attempt ended; it requeues every task after it: the reviewers (their verdicts named the old
 * fingerprint), the other tasks that ran (their work built on the old attempt) and the tasks its failure
 * blocked. It is refused while a task after it runs, when a task after it was cancelled, once the job
 * integrated (until a rollback), and past the job's `limits.repairs`.
 *
 * A retry-launch relaunches, once, a task whose worker never started (its launch failed: a refused prepare,
 * a busy machine); it is refused when any worker turn of it started, since that one is not a launch to retry.
 * Either way the coordinator picks the task up (`spot job resume` when none is running).
 */
import { SpotError } from "../errors.ts";
import type { JobTask } from "../schemas/job/task.ts";
import type { SpotContext } from "../store/context.ts";
import { TERMINAL as RUN_TERMINAL } from "../schemas/constants.ts";
import { moveRun } from "../lifecycle/move.ts";
import {
  appendEvent,
  coordinatorAlive,
  type JobState,
  loadJob,
  type RepairFinding,
  type TaskRecord,
  updateJob,
} from "./store.ts";
import { ancestors } from "./validate.ts";
import { reviewTargets } from "./result.ts";

/** The run of a task's attempt: the first keeps the plain id; a retried launch is marked. */
export function attemptRunId(jobId: string, taskId: string, attempt: number, relaunch = false): string {
  return `${jobId}.${taskId}${attempt > 1 ? `-a${attempt}` : ""}${relaunch ? "-relaunch" : ""}`;
}

/** Every task that waits for `id`, directly or through others. */
export function dependentsOf(tasks: readonly JobTask[], id: string): JobTask[] {
  const before = ancestors(tasks);
  return tasks.filter((t) => before.get(t.id)?.has(id));
}

const REPAIRABLE = new Set(["failed", "blocked", "succeeded"]);

/** Why the repair is refused, or the tasks it requeues besides the task itself. Pure. */
export function planRepair(
  tasks: readonly JobTask[],
  state: Pick<JobState, "status" | "tasks" | "integration">,
  id: string,
  limit: number,
): { refused: string; blocking?: string[]; hint?: string } | { requeue: string[] } {
  const record = state.tasks[id];
  if (!record) return { refused: `the job has no task "${id}"` };
  if (state.status === "cancelled") return { refused: "the job was cancelled" };
  if (state.integration && !state.integration.rolledBackAt) {
    return { refused: "the job was integrated; roll it back first" };
  }
  if (!REPAIRABLE.has(record.state)) return { refused: `task "${id}" is ${record.state}` };
  // What the parent asked for: the tasks requeued with a repair are not counted against it.
  const used = Object.values(state.tasks).reduce((n, t) => n + (t.repairs?.length ?? 0), 0);
  if (used >= limit) return { refused: `the job used its ${limit} repair(s) (limits.repairs)` };
  const after = dependentsOf(tasks, id);
  const running = after.filter((d) => state.tasks[d.id].state === "running").map((d) => d.id);
  if (running.length) {
    return {
      refused: `${named(running)} after it ${running.length > 1 ? "are" : "is"} running`,
      blocking: running,
      hint: "wait for the job to settle (spot job wait JOB) or cancel it, then repair",
    };
  }
  const cancelled = after.filter((d) => state.tasks[d.id].state === "cancelled").map((d) => d.id);
  if (cancelled.length) return { refused: `${named(cancelled)} after it was cancelled`, blocking: cancelled };
  // Every task after it that ran goes again: a reviewer's verdict named the old fingerprint, and any other
  // task's work was built on the old attempt (its next attempt starts from the new one).
  return { requeue: after.filter((d) => state.tasks[d.id].state !== "queued").map((d) => d.id) };
}

const named = (ids: string[]) => `task${ids.length > 1 ? "s" : ""} ${ids.map((i) => `"${i}"`).join(", ")}`;

/** One reviewer finding as the repair is told it: its priority, the problem, the evidence, the change asked. */
function findingLine(f: RepairFinding): string {
  const evidence = f.evidence ? ` Evidence: ${f.evidence}` : "";
  const change = f.requiredChange ? ` Required change: ${f.requiredChange}` : "";
  return `  - [${f.severity}] from reviewer "${f.reviewer}": ${f.message}${evidence}${change}`;
}

/** What a new attempt is told, as instructions after its own: each repair's text and the review it answers. */
export function repairInstructions(record: TaskRecord): string[] {
  return (record.repairs ?? []).map((r) => {
    const head = `Repair (attempt ${r.attempt}): your attempt ${
      r.attempt - 1
    } ended ${r.previous}. The parent asks: ${r.text}`;
    if (!r.findings?.length) return head;
    return [`${head}\n  The review of attempt ${r.attempt - 1} found:`, ...r.findings.map(findingLine)].join(
      "\n",
    );
  });
}

/** What the reviewers of `id` found in its last attempt: every finding about it (or about no builder in particular). */
export function reviewFindings(
  tasks: readonly JobTask[],
  state: Pick<JobState, "tasks">,
  id: string,
): RepairFinding[] {
  return tasks
    .filter((r) => reviewTargets(tasks, r).includes(id))
    .flatMap((r) =>
      (state.tasks[r.id]?.result?.findings ?? [])
        .filter((f) => f.taskId === undefined || f.taskId === id)
        .map((f) => ({
          reviewer: r.id,
          severity: f.severity,
          message: f.message,
          ...(f.evidence ? { evidence: f.evidence } : {}),
          ...(f.requiredChange ? { requiredChange: f.requiredChange } : {}),
        }))
    );
}

/**
 * A fresh record for a requeued task; the attempt it keeps or starts, the runs before it, and what its next
 * attempt starts from (graphs/launch/context.ts): the last attempt's start and verified commits.
 */
function requeued(record: TaskRecord, attempt: number, extra: Partial<TaskRecord> = {}): TaskRecord {
  const previousRuns = [...(record.previousRuns ?? []), ...(record.runId ? [record.runId] : [])];
  const previous = record.runId
    ? {
      attempt: record.attempt ?? 1,
      runId: record.runId,
      ...(record.startCommit ? { startCommit: record.startCommit } : {}),
      ...(record.verifiedCommit ? { verifiedCommit: record.verifiedCommit } : {}),
    }
    : record.previous;
  return {
    state: "queued",
    attempt,
    ...(record.repairs ? { repairs: record.repairs } : {}),
    ...(previousRuns.length ? { previousRuns } : {}),
    ...(previous ? { previous } : {}),
    ...extra,
  };
}

/** Ends an attempt's run that is still open (a succeeded builder's waits for integration). */
async function closeRun(ctx: SpotContext, runId: string | undefined, why: string): Promise<void> {
  if (!runId) return;
  const held = await ctx.store.lock(runId).catch(() => null);
  if (!held) return;
  try {
    const run = await ctx.store.load(runId).catch(() => null);
    if (run && !RUN_TERMINAL.has(run.status)) {
      await moveRun(ctx, run, "failed", why, { failure: { code: "JOB_TASK_REPLACED", message: why } });
    }
  } finally {
    held.release();
  }
}

async function afterRequeue(ctx: SpotContext, jobId: string, ids: string[], closing: (string | undefined)[]) {
  const at = ctx.now();
  for (const id of ids) await appendEvent(ctx.paths, jobId, { at, type: "task", id, state: "queued" });
  for (const runId of closing) await closeRun(ctx, runId, "replaced by a new attempt (spot job repair)");
  const alive = await coordinatorAlive(ctx.paths, jobId);
  return alive ? {} : { nextCommand: `spot job resume ${jobId}` };
}

export async function repairTask(ctx: SpotContext, jobId: string, id: string, text: string) {
  if (!text.trim() || text.length > 4000) {
    throw new SpotError("CLI_USAGE", "Cannot repair with that text: it must be 1 to 4,000 characters");
  }
  const at = ctx.now();
  let attempt = 0;
  let ids: string[] = [];
  const closing: (string | undefined)[] = [];
  await updateJob(ctx.paths, jobId, (job, state) => {
    const plan = planRepair(job.tasks, state, id, job.config.limits.repairs);
    if ("refused" in plan) {
      const hint = plan.hint?.replace("JOB", jobId);
      throw new SpotError("REPAIR_REFUSED", `Cannot repair task "${id}" of job ${jobId}: ${plan.refused}`, {
        details: {
          jobId,
          task: id,
          ...(plan.blocking ? { blocking: plan.blocking } : {}),
          ...(hint ? { hint } : {}),
          nextCommand: `spot job status ${jobId}`,
        },
      });
    }
    const old = state.tasks[id];
    attempt = (old.attempt ?? 1) + 1;
    const previous = old.state === "succeeded"
      ? "succeeded"
      : `${old.state}: ${old.reason ?? "no reason given"}`;
    const findings = reviewFindings(job.tasks, state, id);
    const repairs = [
      ...(old.repairs ?? []),
      { attempt, at, text, previous: previous.slice(0, 500), ...(findings.length ? { findings } : {}) },
    ];
    const tasks = { ...state.tasks, [id]: requeued(old, attempt, { repairs }) };
    closing.push(old.runId);
    for (const d of plan.requeue) {
      const r = state.tasks[d];
      closing.push(r.runId);
      tasks[d] = requeued(r, r.runId ? (r.attempt ?? 1) + 1 : r.attempt ?? 1);
    }
    ids = [id, ...plan.requeue];
    const status = state.status === "created" ? "created" : "running";
    return { state: { ...state, status, reason: undefined, updatedAt: at, tasks } };
  });
  return { jobId, taskId: id, attempt, requeued: ids, ...(await afterRequeue(ctx, jobId, ids, closing)) };
}

export async function retryLaunch(ctx: SpotContext, jobId: string, id: string) {
  const { job, state: before } = await loadJob(ctx.paths, jobId);
  const record = before.tasks[id];
  if (!record) {
    throw new SpotError("REPAIR_REFUSED", `Cannot relaunch task "${id}": job ${jobId} has no such task`);
  }
  const events = record.runId ? await ctx.store.events(record.runId).catch(() => []) : [];
  const launched = events.some((e) =>
    e.type === "worker_start" || (e.type === "step_start" && e.step === "worker")
  );
  const why = record.state !== "failed"
    ? `it is ${record.state}`
    : record.relaunched
    ? "it was relaunched once already"
    : launched
    ? "its worker started: that is not a launch to retry (use spot job repair)"
    : null;
  if (why) throw new SpotError("REPAIR_REFUSED", `Cannot relaunch task "${id}" of job ${jobId}: ${why}`);
  const ids = [id];
  await updateJob(ctx.paths, jobId, (_, state) => {
    if (state.tasks[id].runId !== record.runId || state.tasks[id].state !== "failed") {
      throw new SpotError(
        "REPAIR_REFUSED",
        `Cannot relaunch task "${id}" of job ${jobId}: it changed meanwhile`,
      );
    }
    // The same attempt again: what it starts from stays what its launch had, not the launch that failed.
    const { previous: _failed, ...fresh } = requeued(record, record.attempt ?? 1, { relaunched: true });
    const again = record.previous ? { ...fresh, previous: record.previous } : fresh;
    const tasks = { ...state.tasks, [id]: again };
    // The tasks its failed launch blocked wait for it again.
    for (const d of dependentsOf(job.tasks, id)) {
      if (tasks[d.id].state === "blocked" && !tasks[d.id].runId) {
        tasks[d.id] = requeued(tasks[d.id], tasks[d.id].attempt ?? 1);
        ids.push(d.id);
      }
    }
    return { state: { ...state, status: "running", reason: undefined, updatedAt: ctx.now(), tasks } };
  });
  return { jobId, taskId: id, requeued: ids, ...(await afterRequeue(ctx, jobId, ids, [])) };
}
