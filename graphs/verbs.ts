/**
 * `spot job init|add|start|wait|status|cancel`: thin verbs over the job store. `start` starts the coordinator
 * detached (like `spot agent start` starts its driver) and returns at once; `wait` blocks up to its window and
 * fails (`JOB_FAILED`) when the job settled with a task that did not succeed.
 */
import { resolve } from "../base/path.ts";
import { isSpotError, SpotError } from "../errors.ts";
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
import { outsideOf, withOutside } from "./integration/outside.ts";

/** Where a coordinator's stderr goes: what ended one before it could say so in the job's events. */
export const COORDINATOR_LOG = "coordinator.log";

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
    /** The executor whose attempt ran the task's turn, when the job went to the fleet (docs/fleet.md). */
    executor?: string;
  }[];
  /** What the job landed and what stands now, or why its last integration landed nothing; absent before any. */
  integration?: IntegrationView;
}

async function view(ctx: SpotContext, jobId: string): Promise<JobView> {
  const { job, state } = await loadJob(ctx.paths, jobId);
  // Each task's run read once: its status (a builder landed outside the job) and its executor (the fleet).
  const runs = await Promise.all(job.tasks.map(async (t) => {
    const runId = state.tasks[t.id]?.runId;
    return runId ? await ctx.store.load(runId).catch(() => null) : null;
  }));
  const out: JobView = {
    jobId,
    status: state.status,
    ...(state.reason ? { reason: state.reason } : {}),
    coordinatorAlive: await coordinatorAlive(ctx.paths, jobId),
    jobDir: jobDir(ctx.paths, jobId),
    tasks: job.tasks.map((t, i) => {
      const fleet = runs[i]?.fleet;
      const executor = fleet?.role === "origin" ? fleet.executor : undefined;
      return { ...taskOutline(t, state.tasks[t.id]), ...(executor ? { executor } : {}) };
    }),
  };
  const outside = outsideOf(
    job.tasks.map((t, i) => ({
      id: t.id,
      role: t.role,
      runId: state.tasks[t.id]?.runId ?? null,
      runStatus: runs[i]?.status ?? null,
    })),
    state,
  );
  const integration = withOutside(integrationView(state), outside);
  return integration ? { ...out, integration } : out;
}

/** The job's repository, or NOT_A_REPOSITORY saying where the job looked and how to point it at one. */
async function repositoryOf(dir: string, named: boolean): Promise<string> {
  try {
    return await toplevel(dir);
  } catch (error) {
    if (!isSpotError(error, "NOT_A_REPOSITORY")) throw error;
    const hint = named
      ? `the job's "cwd" must be the repository the tasks work on (its toplevel, or a directory in it)`
      : `run spot job init from inside the repository (cd into it first), or set the job's "cwd" to the ` +
        `repository's absolute path`;
    throw new SpotError(
      "NOT_A_REPOSITORY",
      `Cannot create a job in "${dir}"${named ? " (the job's cwd)" : ""}: it is not inside a git repository`,
      { details: { cwd: dir, hint } },
    );
  }
}

export async function initJob(ctx: SpotContext, file: string, stdin = readStdin) {
  const input = await readInput(ctx, file, stdin);
  // The schema first (a bad cwd is named with its line); then the graph, with the repository's facts.
  let cwd = ctx.cwd;
  const job = await parseJob(input.text, input.name, async (parsed) => {
    cwd = await repositoryOf(parsed.cwd ?? ctx.cwd, parsed.cwd !== undefined);
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

export async function cancelJob(ctx: SpotContext, jobId: string) {
  const at = ctx.now();
  const { state } = await updateJob(ctx.paths, jobId, (_, state) => {
    if (state.status === "succeeded" || state.status === "failed") return { state };
    return { state: cancelQueued(state, "cancelled by spot job cancel", at) };
  });
  await appendEvent(ctx.paths, jobId, { at, type: "job", state: state.status });
  return { jobId, status: state.status };
}
