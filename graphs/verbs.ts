/**
 * `spot job init|add|start|wait|status|cancel`: thin verbs over the job store. `start` starts the coordinator
 * detached (like `spot agent start` starts its driver) and returns at once; `wait` blocks up to its window and
 * fails (`JOB_FAILED`) when the job settled with a task that did not succeed.
 */
import { resolve } from "../base/path.ts";
import { type ErrorCode, SpotError } from "../errors.ts";
import { toplevel } from "../git/repo.ts";
import { git } from "../git/git.ts";
import { spotArgv, startTicks } from "../agents/launch.ts";
import { spawnDetached } from "../sandbox/spawn.ts";
import type { SpotContext } from "../store/context.ts";
import { parseAddedTask, parseJob } from "./load.ts";
import {
  appendEvent,
  cancelQueued,
  coordinatorAlive,
  createJob,
  jobDir,
  jobFile,
  type JobState,
  loadJob,
  newJobId,
  taskOutline,
  updateJob,
} from "./store.ts";
import { TERMINAL } from "./schedule.ts";
import { type IntegrationView, integrationView } from "./integration/view.ts";
import { commitOf, reviewBaseSides } from "./launch/review_base.ts";
import { unreviewedWarning } from "./result.ts";
import { landedOutside } from "./integration/outside.ts";

/** Where a coordinator's stderr goes: what ended one before it could say so in the job's events. */
export const COORDINATOR_LOG = "coordinator.log";
/**
 * How long `wait` lets an unsettled job go without a live coordinator before it says so: longer than a
 * coordinator takes from `spot job start` to holding the job on a loaded machine.
 */
export const NO_COORDINATOR_GRACE_MS = 15_000;

/** `FILE` or `-` (stdin): the text and the name messages use. */
async function readInput(ctx: SpotContext, file: string, stdin: () => Promise<string>) {
  if (file === "-") return { text: await stdin(), name: "-" };
  const path = resolve(ctx.cwd, file);
  try {
    return { text: await Deno.readTextFile(path), name: path };
  } catch (error) {
    throw new SpotError("JOB_INVALID", `Cannot read "${path}": ${(error as Error).message}`);
  }
}

/** The repository's files at HEAD (what spot would lock if a check names one). */
async function filesAtHead(cwd: string): Promise<Set<string>> {
  const out = await git(["ls-tree", "-r", "-z", "--name-only", "HEAD"], { cwd, allowFailure: true });
  return new Set(out.stdout.split("\0").filter(Boolean));
}

/** The `reviewBase` revisions of `tasks` that name a commit in `cwd`. */
async function knownCommits(cwd: string, tasks: readonly { reviewBase?: string }[]): Promise<Set<string>> {
  const known = new Set<string>();
  const revs = new Set(tasks.flatMap((t) => t.reviewBase ? reviewBaseSides(t.reviewBase) : []));
  for (const rev of revs) if (await commitOf(cwd, rev)) known.add(rev);
  return known;
}

/** A task file's `reviewBase`, read before its schema (which refuses anything that is not a string). */
function taskReviewBase(text: string): { reviewBase?: string }[] {
  try {
    const value = JSON.parse(text)?.reviewBase;
    return typeof value === "string" ? [{ reviewBase: value }] : [];
  } catch {
    return [];
  }
}

export const readStdin = async () => await new Response(Deno.stdin.readable).text();

export interface JobView {
  jobId: string;
  status: JobState["status"];
  reason?: string;
  coordinatorAlive: boolean;
  jobDir: string;
  tasks: {
    id: string;
    role: string;
    state: string;
    reason?: string;
    runId?: string;
    changedFiles?: string[];
  }[];
  /** What the job landed and what stands now, or why its last integration landed nothing; absent before any. */
  integration?: IntegrationView;
}

async function view(ctx: SpotContext, jobId: string): Promise<JobView> {
  const { job, state } = await loadJob(ctx.paths, jobId);
  const out: JobView = {
    jobId,
    status: state.status,
    ...(state.reason ? { reason: state.reason } : {}),
    coordinatorAlive: await coordinatorAlive(ctx.paths, jobId),
    jobDir: jobDir(ctx.paths, jobId),
    tasks: job.tasks.map((t) => taskOutline(t, state.tasks[t.id])),
  };
  const integration = integrationView(state);
  const outside = await landedOutside(ctx, job.tasks, state);
  if (!outside.length) return integration ? { ...out, integration } : out;
  const named = outside.map((o) => `"${o.task}" (run ${o.runId})`).join(", ");
  const line = `builder(s) ${named} landed outside the job (spot integrate on the run), so the job's ` +
    `own integration does not list them`;
  return {
    ...out,
    integration: {
      ...(integration ?? { landed: false }),
      landedOutside: outside,
      summary: integration ? `${integration.summary}; ${line}` : line,
    },
  };
}

export async function initJob(ctx: SpotContext, file: string, stdin = readStdin) {
  const input = await readInput(ctx, file, stdin);
  // The schema first (a bad cwd is named with its line); then the graph, with the repository's facts.
  let cwd = ctx.cwd;
  const job = await parseJob(input.text, input.name, async (parsed) => {
    cwd = await toplevel(parsed.cwd ?? ctx.cwd);
    return { tree: await filesAtHead(cwd), commits: await knownCommits(cwd, parsed.tasks) };
  });
  const jobId = newJobId();
  await createJob(ctx.paths, { ...job, cwd, jobId }, ctx.now());
  return {
    jobId,
    cwd,
    tasks: job.tasks.length,
    jobDir: jobDir(ctx.paths, jobId),
    ...unreviewedWarning(jobId, job.tasks),
  };
}

export async function addTask(ctx: SpotContext, jobId: string, file: string, stdin = readStdin) {
  const input = await readInput(ctx, file, stdin);
  const { job: before } = await loadJob(ctx.paths, jobId);
  const task = await parseAddedTask(input.text, input.name, {
    tasks: before.tasks,
    tree: await filesAtHead(before.cwd),
    commits: await knownCommits(before.cwd, taskReviewBase(input.text)),
  });
  if (task.role === "builder" && !before.allowWrites) {
    throw new SpotError("JOB_INVALID", `Cannot add builder "${task.id}": job ${jobId} does not allow writes`);
  }
  let reopened = false;
  await updateJob(ctx.paths, jobId, (job, state) => {
    if (TERMINAL.has(state.tasks[task.id]?.state) || job.tasks.some((t) => t.id === task.id)) {
      throw new SpotError("JOB_INVALID", `Cannot add task "${task.id}": job ${jobId} already has it`);
    }
    // A job that succeeded without the review its builders need may take its reviewer until it lands.
    reopened = state.status === "succeeded" && task.role === "reviewer" && !task.reviewBase &&
      !(state.integration && !state.integration.rolledBackAt);
    if (state.status !== "created" && state.status !== "running" && !reopened) {
      const why = state.status === "succeeded"
        ? state.integration && !state.integration.rolledBackAt
          ? " and integrated"
          : "; only a reviewer of its builders can be added to it"
        : "";
      throw new SpotError(
        "JOB_INVALID",
        `Cannot add task "${task.id}": job ${jobId} is ${state.status}${why}`,
      );
    }
    const status = reopened ? "running" as const : state.status;
    return {
      job: { ...job, tasks: [...job.tasks, task] },
      state: {
        ...state,
        status,
        updatedAt: ctx.now(),
        tasks: { ...state.tasks, [task.id]: { state: "queued" } },
      },
    };
  });
  const alive = await coordinatorAlive(ctx.paths, jobId);
  return {
    jobId,
    taskId: task.id,
    ...(reopened && !alive ? { nextCommand: `spot job resume ${jobId}` } : {}),
  };
}

export async function startJob(ctx: SpotContext, jobId: string) {
  const { job, state } = await loadJob(ctx.paths, jobId);
  if (await coordinatorAlive(ctx.paths, jobId)) {
    throw new SpotError("JOB_RUNNING", `Cannot start job "${jobId}": its coordinator is already running`);
  }
  if (state.status === "succeeded" || state.status === "cancelled") {
    throw new SpotError("JOB_INVALID", `Cannot start job "${jobId}": it is ${state.status}`);
  }
  const started = spawnDetached([...spotArgv(), "job", "coordinate", jobId], {
    cwd: job.cwd,
    env: Deno.env.toObject(),
    // Whatever ends a coordinator before it can record it (a crash at start) is kept here.
    stderrFile: jobFile(ctx.paths, jobId, COORDINATOR_LOG),
  });
  if (started.pid === null) {
    throw new SpotError(
      "STEP_FAILED",
      `Cannot start job "${jobId}": ${started.spawnError ?? "unknown error"}`,
    );
  }
  return { jobId, pid: started.pid, procStart: startTicks(started.pid), jobDir: jobDir(ctx.paths, jobId) };
}

export function jobStatus(ctx: SpotContext, jobId: string): Promise<JobView> {
  return view(ctx, jobId);
}

export async function waitJob(
  ctx: SpotContext,
  jobId: string,
  options: { timeoutMs?: number; graceMs?: number } = {},
) {
  const end = Date.now() + (options.timeoutMs ?? await untilJobEnds(ctx, jobId));
  const watch = coordinatorWatch(options.graceMs);
  for (;;) {
    const v = await view(ctx, jobId);
    watch(v);
    // A cancelled job is settled once its coordinator has recorded how each running task ended.
    const settled = (v.status === "succeeded" || v.status === "failed" || v.status === "cancelled") &&
      (v.tasks.every((t) => t.state !== "running") || !v.coordinatorAlive);
    if (settled) {
      if (v.status === "succeeded") return { ...v, waiting: false };
      const bad = v.tasks.filter((t) => t.state !== "succeeded").map((t) => `${t.id} ${t.state}`);
      // A job its own limits stopped fails with the limit's code; any other with JOB_FAILED.
      const code = /^(BUDGET_EXCEEDED|JOB_TIMEOUT):/.exec(v.reason ?? "")?.[1] as ErrorCode | undefined;
      const why = code ? ` (${v.reason})` : "";
      throw new SpotError(code ?? "JOB_FAILED", `Job "${jobId}" ended ${v.status}${why}: ${bad.join(", ")}`, {
        details: { ...v, waiting: false },
      });
    }
    if (Date.now() >= end) return { ...v, waiting: true };
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * How long the coordinator may take, after a job's `limits.jobMs` ran out, to stop its running tasks and record
 * the job cancelled: a stopped worker and its checks get their own grace periods first.
 */
export const SETTLE_MARGIN_MS = 120_000;

/**
 * `wait` and `barrier` without `--timeout-ms`: until the job settles, which its own `limits.jobMs` bounds
 * (counted from its first start, or whole when it has not started), plus the coordinator's margin to stop it.
 */
export async function untilJobEnds(ctx: SpotContext, jobId: string): Promise<number> {
  const { job, state } = await loadJob(ctx.paths, jobId);
  const started = state.startedAt ? Date.parse(state.startedAt) : Date.now();
  return Math.max(0, started + job.config.limits.jobMs - Date.now()) + SETTLE_MARGIN_MS;
}

/**
 * For a verb that polls a job (`wait`, `barrier`): nothing will move a job that is not settled and has no
 * coordinator, so after `graceMs` of that it throws JOB_NOT_RUNNING instead of letting the caller wait forever.
 */
export function coordinatorWatch(graceMs = NO_COORDINATOR_GRACE_MS): (v: JobView) => void {
  let orphanedSince: number | null = null;
  return (v) => {
    if ((v.status !== "created" && v.status !== "running") || v.coordinatorAlive) {
      orphanedSince = null;
      return;
    }
    orphanedSince ??= Date.now();
    if (Date.now() - orphanedSince >= graceMs) throw notRunning(v);
  };
}

function notRunning(v: JobView): SpotError {
  const fix = v.status === "created"
    ? `start it (spot job start ${v.jobId})`
    : `resume it (spot job resume ${v.jobId}); ${COORDINATOR_LOG} in its job dir says what ended the last one`;
  return new SpotError(
    "JOB_NOT_RUNNING",
    `Cannot wait for job "${v.jobId}": it is ${v.status} and no coordinator is running it; ${fix}`,
    { details: { ...v, waiting: false } },
  );
}

export async function cancelJob(ctx: SpotContext, jobId: string) {
  const at = ctx.now();
  const { state } = await updateJob(ctx.paths, jobId, (_, state) => {
    if (state.status === "succeeded" || state.status === "failed") return { state };
    return { state: cancelQueued(state, "cancelled by spot job cancel", at) };
  });
  await appendEvent(ctx.paths, jobId, { at, type: "job", state: state.status });
  return { jobId, status: state.status };
}
