/**
 * One task as a spot run: a contract written from the task (a builder may change only what it owns), the run
 * prepared where the task starts (the job's base plus its builders' verified work, graphs/launch/context.ts)
 * and its worker's turn run like any other, then the task judged. A builder's work is verified by spot
 * (`verify`: the scans and its checks) and fails with the paths when it wrote outside its ownership; a
 * read-only role fails when its worktree changed at all. A succeeded builder's verified tree is committed
 * (graphs/launch/verified.ts) for the tasks after it to start from.
 */
import { join } from "../base/path.ts";
import { isSpotError } from "../errors.ts";
import { sha256Hex } from "../git/hash.ts";
import { computeDelta } from "../git/delta.ts";
import { worktreeOf } from "../lifecycle/worktree.ts";
import type { TaskContractInput } from "../schemas/task_contract.ts";
import { type JobTask, READ_ONLY_ROLES } from "../schemas/job/task.ts";
import type { SpotContext } from "../store/context.ts";
import { writeJsonAtomic } from "../store/files.ts";
import { prepare } from "../verbs/prepare.ts";
import { runWorker } from "../verbs/run.ts";
import { verifyRun } from "../verbs/verify.ts";
import { taskPrompt, webHostsOf } from "./prompt.ts";
import { readNotes } from "./admin/notes.ts";
import { endTaskRun } from "./run_end.ts";
import type { TaskResult } from "../schemas/job/result.ts";
import { jobFile, type StoredJob, type TaskRecord } from "./store.ts";
import { owns } from "./validate.ts";
import { verificationReason } from "./launch/failed_checks.ts";
import type { TurnBudget } from "../worker/budget.ts";
import type { JobBase } from "./launch/base.ts";
import { planStart, type StartPlan, turnContext } from "./launch/context.ts";
import { commitVerified } from "./launch/verified.ts";
import { taskResult } from "./task_result.ts";
import type { TaskPlacement } from "./launch/place.ts";

/** A scout's answer can be long; the job's state keeps its head, the run keeps all of it. */
const MAX_SUMMARY = 8000;

function contractOf(job: StoredJob, task: JobTask, runId: string): TaskContractInput {
  const checks = task.checks?.length
    ? task.checks.map((c) => ({ argv: c.argv, timeoutSeconds: Math.ceil(c.timeoutMs / 1000) }))
    // The parent said why this builder has no checks (noChecksReason); the run still needs one to exist.
    : [{ argv: ["true"], timeoutSeconds: 10 }];
  return {
    schemaVersion: 1,
    runId,
    repositoryRoot: job.cwd,
    goal: `${task.role} task "${task.id}" of job ${job.jobId}: ${task.task}`.slice(0, 4000),
    allowedPaths: task.ownership?.flatMap((p) => [p.replace(/\/$/, ""), `${p.replace(/\/$/, "")}/**`]) ??
      ["**"],
    acceptanceCriteria: task.acceptance,
    verification: checks,
    risk: "low",
  };
}

/** Paths a diff touches (both sides of a rename). */
export function diffPaths(diff: string): string[] {
  const out = new Set<string>();
  for (const m of diff.matchAll(/^diff --git a\/(.+?) b\/(.+)$/gm)) {
    out.add(m[1]);
    out.add(m[2]);
  }
  return [...out].sort();
}

/** The worker said it did not succeed: the task fails with what it gave as the reason. */
const reported = (result: TaskResult, extra: Partial<TaskRecord>): TaskRecord => ({
  state: "failed",
  reason: `the worker reported ${result.status}: ${(result.blockers[0] ?? result.summary).slice(0, 300)}`,
  ...extra,
});

/** What the task's worktree changed, and the failure when it wrote where its role or ownership forbids. */
async function ownershipCheck(
  ctx: SpotContext,
  task: JobTask,
  runId: string,
): Promise<{ changed: string[]; violation?: TaskRecord }> {
  const state = await ctx.store.load(runId);
  const changed = diffPaths(
    (await computeDelta(await worktreeOf(state), state.workerBaseRevision, ctx.store.dir(runId))).diff,
  );
  const extra = { runId, changedFiles: changed };
  if (task.role !== "builder") {
    if (!changed.length) return { changed };
    return {
      changed,
      violation: fail(
        `OWNERSHIP_VIOLATED: a ${task.role} may not write, and changed ${changed.join(", ")}`,
        extra,
      ),
    };
  }
  const outside = changed.filter((f) => !(task.ownership ?? []).some((o) => owns(o, f)));
  if (!outside.length) return { changed };
  return {
    changed,
    violation: fail(`OWNERSHIP_VIOLATED: wrote outside its ownership: ${outside.join(", ")}`, extra),
  };
}

const fail = (reason: string, extra: Partial<TaskRecord> = {}): TaskRecord => ({
  state: "failed",
  reason,
  ...extra,
});

async function prepareTask(
  ctx: SpotContext,
  job: StoredJob,
  task: JobTask,
  options: TaskRunOptions & { plan?: StartPlan },
): Promise<void> {
  const { runId, base, env, plan } = options;
  const dir = join(jobFile(ctx.paths, job.jobId, "tasks"), task.id);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const taskFile = join(dir, "task.json");
  // The contract names the HEAD the job started from: prepare refuses when the checkout moved since.
  await writeJsonAtomic(taskFile, {
    ...contractOf(job, task, runId),
    ...(base ? { baseRevision: base.head } : {}),
  });
  await prepare(ctx, {
    ...(plan ? { startCommit: plan.startCommit } : base ? { startCommit: base.commit } : {}),
    ...(plan?.checkoutCommit ? { checkoutCommit: plan.checkoutCommit } : {}),
    ...(env ? { workspaceEnv: env } : {}),
    taskFile,
    runId,
    profile: task.model?.profile ?? job.config.profile,
    model: task.model?.id,
    sandbox: job.config.sandbox,
    owner: { kind: "job", jobId: job.jobId, task: task.id },
    selectWorker: false,
    selectModel: false,
  });
}

/** spot's verification of a builder's run: made now, or the one on record when a dead coordinator made it. */
async function verification(
  ctx: SpotContext,
  runId: string,
): Promise<{ passed: boolean; diffSha256: string }> {
  if ((await ctx.store.load(runId)).status === "verifying") return await verifyRun(ctx, runId);
  const recorded = await ctx.store.readJson<{ passed: boolean; diffSha256: string }>(
    runId,
    "verification.json",
  );
  return recorded ?? { passed: false, diffSha256: "" };
}

async function judgeTask(
  ctx: SpotContext,
  job: StoredJob,
  task: JobTask,
  options: TaskRunOptions,
): Promise<TaskRecord> {
  const { runId } = options;
  try {
    const known = options.base ? { base: options.base, records: options.records } : null;
    // Where it starts is settled before anything is made: a conflict there fails it before its worker runs.
    const plan = known && !options.resume ? await planStart(ctx, job, task, known) : undefined;
    if (!options.resume) await prepareTask(ctx, job, task, { ...options, plan });
    const context = known ? await turnContext(ctx, job, task, { ...known, runId, plan }) : undefined;
    // A read-only role's worktree is mounted read-only under an OS sandbox; under none, the check below holds.
    const readOnly = READ_ONLY_ROLES.includes(task.role);
    // Research gets the CLI's web tools, to the job's hosts only; its result repair turn gets none.
    const hosts = webHostsOf(job, task);
    const bound = task.reviewBase && context?.reviewed ? { bound: context.reviewed.fingerprints } : {};
    if (options.resume !== "judge") {
      const turn = {
        prompt: taskPrompt(job, task, {
          before: options.before,
          notes: await readNotes(ctx.paths, job.jobId),
          context,
        }),
        readOnly,
        budget: options.budget,
        ...(context?.files.length ? { attachments: context.files } : {}),
        ...(hosts ? { web: { hosts } } : {}),
      };
      if (options.place) {
        await options.place.turn(ctx, runId, {
          turn,
          verify: task.role === "builder",
          jobResult: { tasks: job.tasks, task: task.id, ...bound },
          job: { jobId: job.jobId, task: task.id },
        });
      } else await runWorker(ctx, runId, turn);
    }
    // Ownership first: a task that wrote where it may not fails with the paths, whatever it reports; and again
    // after a repair turn, which under `--sandbox none` only this check keeps from writing.
    const wrote = await ownershipCheck(ctx, task, runId);
    if (wrote.violation) return wrote.violation;
    const { result, repaired } = await taskResult(ctx, job, task, {
      runId,
      budget: options.budget,
      // A verdict on a range binds to the range it was shown (a builder's, to its fingerprint at integration).
      ...bound,
      // A placed turn had its repair turn where the worker's session lives (graphs/launch/place.ts).
      placed: !!options.place,
    });
    const { changed, violation } = repaired ? await ownershipCheck(ctx, task, runId) : wrote;
    if (violation) return violation;
    const summary = result.summary.slice(0, MAX_SUMMARY);
    if (result.status !== "succeeded") {
      return reported(result, {
        runId,
        summary,
        result,
        ...(changed.length ? { changedFiles: changed } : {}),
      });
    }
    if (task.role !== "builder") {
      const reviewed = context?.reviewed ? { reviewed: context.reviewed } : {};
      return { state: "succeeded", runId, summary, result, ...reviewed };
    }
    const verified = await verification(ctx, runId);
    if (!verified.passed) {
      return fail(await verificationReason(ctx, task, { jobId: job.jobId, runId }), { runId });
    }
    const commits = await commitVerified(ctx, runId, {
      jobId: job.jobId,
      taskId: task.id,
      diffSha256: verified.diffSha256,
    });
    const fingerprint = await sha256Hex(JSON.stringify({ diffSha256: verified.diffSha256, result }));
    return { state: "succeeded", runId, summary, changedFiles: changed, result, fingerprint, ...commits };
  } catch (error) {
    // Another process took the last run slot between the coordinator's count and admission: nothing was made,
    // so the task waits for a slot like any queued one.
    if (isSpotError(error, "CONCURRENCY_LIMIT") && !options.resume) return { state: "queued" };
    const failure = isSpotError(error)
      ? (error.details as { failure?: { code?: string } })?.failure
      : undefined;
    const code = failure?.code === "budget" ? "BUDGET_EXCEEDED" : isSpotError(error) ? error.code : "";
    const reason = code ? `${code}: ${(error as Error).message}` : String(error);
    return fail(reason.split("\n")[0].slice(0, 500), { runId });
  }
}

export interface TaskRunOptions {
  runId: string;
  before: { id: string; record: TaskRecord }[];
  /** Every task's record when the task started: where it starts is built from its builders' verified commits. */
  records: Readonly<Record<string, TaskRecord>>;
  /** Its share of the job's cost budget and the job's per-turn limits. */
  budget?: TurnBudget;
  /** The commit the job's tasks start from (graphs/launch/base.ts). */
  base?: JobBase;
  /** Its ports and compose project (graphs/launch/ports.ts), for its worker and its checks. */
  env?: Record<string, string>;
  /** Taking over from a dead coordinator (graphs/reconcile.ts): the run exists; run its worker, or only judge. */
  resume?: "run" | "judge";
  /** Where the worker's turn runs when not here (a fleet: graphs/launch/place.ts). */
  place?: TaskPlacement;
}

export async function runTask(
  ctx: SpotContext,
  job: StoredJob,
  task: JobTask,
  options: TaskRunOptions,
): Promise<TaskRecord> {
  const judged = await judgeTask(ctx, job, task, options);
  const costUsd = await ctx.store.load(options.runId).then((s) => s.workerCostUsd, () => undefined);
  const record = costUsd === undefined ? judged : { ...judged, costUsd };
  // The run ends with its task (a succeeded builder's waits for integration), so it frees its slot.
  await endTaskRun(ctx, job.jobId, task.role, record).catch(() => {});
  return record;
}
