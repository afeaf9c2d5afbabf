/**
 * What the dashboard shows of jobs, read on demand through the job store's readers (`loadJob`, `readEvents`,
 * `jobsDir`) and each task run's `state.json`. Reading changes nothing: no lock is taken or created. A job's
 * files are spot's own but may be edited by hand, so every field is type-checked before it is shown.
 */
import { join } from "../../base/path.ts";
import { TASK_STATES } from "../../graphs/schedule.ts";
import {
  jobDir,
  type JobEvent,
  jobsDir,
  type JobState,
  loadJob,
  readEvents,
  type StoredJob,
} from "../../graphs/store.ts";
import { RUN_ID_PATTERN } from "../../schemas/constants.ts";
import type { SpotPaths } from "../../store/paths.ts";
import { asRunState } from "../../store/run_entry.ts";
import { depths } from "./layout.ts";
import { type IntegrationView, integrationView } from "../../graphs/integration/view.ts";
import { outsideOf, withOutside } from "../../graphs/integration/outside.ts";
import { cleanTransitions, type Segment, taskSegments, type Transition } from "../plots/phases.ts";

/** The newest jobs the list reads at once; older ones are a page away. */
export const JOBS_PAGE = 50;
/** A job page shows its most recent transitions, enough to see what just happened. */
export const MAX_EVENTS = 100;
/** A task's text in a node or the API; the rest is in job.json. */
const TASK_CHARS = 240;
/** A task run's latest transitions, enough for its timeline (a run has a dozen at most without revisions). */
const MAX_TRANSITIONS = 50;

export interface JobRow {
  jobId: string;
  status: string;
  reason: string | null;
  cwd: string;
  createdAt: string;
  updatedAt: string;
  taskCount: number;
  /** Tasks in each state, every state named (0 when none). */
  byState: Record<string, number>;
}

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface TaskView {
  id: string;
  role: string;
  task: string;
  after: string[];
  depth: number;
  state: string;
  reason: string | null;
  runId: string | null;
  /** The task run's own status (`verifying`, `reviewing`, …) once it exists. */
  runStatus: string | null;
  startedAt: string | null;
  endedAt: string | null;
  elapsedMs: number | null;
  /** The run's worker usage and cost, once a worker turn has ended; null before (unknown, not zero). */
  usage: Usage | null;
  costUsd: number | null;
  /** Its run's transitions (status and time), oldest first; empty before the run exists. */
  transitions: Transition[];
  /** Its time on the job's clock: waiting for its `after`, then its run's phases (serve/plots/phases.ts). */
  segments: Segment[];
  /** The executor whose attempt the run took over, when its turn ran on the fleet (docs/fleet.md). */
  executor?: string | null;
}

export interface JobView extends JobRow {
  approval: string;
  allowWrites: boolean;
  integration: IntegrationView | null;
  taskViews: TaskView[];
  /** The most recent transitions, oldest first. */
  events: JobEvent[];
  totals: { costUsd: number; tokensIn: number; tokensOut: number; elapsedMs: number | null };
}

const str = (v: unknown, fallback = ""): string => typeof v === "string" ? v : fallback;
const strOrNull = (v: unknown): string | null => typeof v === "string" && v !== "" ? v : null;
const ms = (iso: string | null): number | null => {
  const t = iso === null ? NaN : Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

/** True when the loaded files have the shape every reader below relies on. */
function wellFormed(loaded: { job: StoredJob; state: JobState }): boolean {
  const { job, state } = loaded;
  return Array.isArray(job?.tasks) && typeof state?.status === "string" &&
    typeof state.tasks === "object" && state.tasks !== null &&
    job.tasks.every((t) => typeof t?.id === "string" && Array.isArray(t.after));
}

function row(job: StoredJob, state: JobState): JobRow {
  const byState: Record<string, number> = Object.fromEntries(TASK_STATES.map((s) => [s, 0]));
  for (const t of job.tasks) {
    const s = str(state.tasks[t.id]?.state, "queued");
    byState[s] = (byState[s] ?? 0) + 1;
  }
  return {
    jobId: state.jobId,
    status: state.status,
    reason: strOrNull(state.reason),
    cwd: str(job.cwd),
    createdAt: str(state.createdAt),
    updatedAt: str(state.updatedAt),
    taskCount: job.tasks.length,
    byState,
  };
}

/** The job, or null when it is missing, half-created or unreadable. A bad id throws JOB_NOT_FOUND. */
async function tryLoad(paths: SpotPaths, jobId: string): Promise<{ job: StoredJob; state: JobState } | null> {
  jobDir(paths, jobId);
  const loaded = await loadJob(paths, jobId).catch(() => null);
  return loaded && wellFormed(loaded) ? { ...loaded, state: { ...loaded.state, jobId } } : null;
}

/** Job directories, newest first (job ids begin with their creation time). */
export async function jobIds(paths: SpotPaths): Promise<string[]> {
  const ids: string[] = [];
  try {
    for await (const e of Deno.readDir(jobsDir(paths))) {
      if (e.isDirectory && RUN_ID_PATTERN.test(e.name) && !e.name.includes("..")) ids.push(e.name);
    }
  } catch {
    return []; // no job yet
  }
  return ids.sort().reverse();
}

export async function listJobs(
  paths: SpotPaths,
  page: { page: number; limit: number } = { page: 1, limit: JOBS_PAGE },
): Promise<{ total: number; jobs: JobRow[] }> {
  const ids = await jobIds(paths);
  const slice = ids.slice((page.page - 1) * page.limit, page.page * page.limit);
  const loaded = await Promise.all(slice.map((id) => tryLoad(paths, id)));
  return { total: ids.length, jobs: loaded.flatMap((l) => l ? [row(l.job, l.state)] : []) };
}

async function runOf(paths: SpotPaths, runId: string | null) {
  if (runId === null || !RUN_ID_PATTERN.test(runId)) return null;
  try {
    return asRunState(JSON.parse(await Deno.readTextFile(join(paths.runsDir, runId, "state.json"))), runId);
  } catch {
    return null; // not prepared yet, or being replaced
  }
}

async function taskView(
  paths: SpotPaths,
  t: StoredJob["tasks"][number],
  rec: JobState["tasks"][string] | undefined,
  depth: number,
  now: number,
): Promise<TaskView> {
  const runId = strOrNull(rec?.runId);
  const run = await runOf(paths, runId);
  const state = str(rec?.state, "queued");
  const startedAt = strOrNull(rec?.startedAt);
  const endedAt = strOrNull(rec?.endedAt);
  const start = ms(startedAt);
  const end = state === "running" ? now : ms(endedAt);
  const turned = run !== null && Number(run.workerAttempts) > 0;
  return {
    id: t.id,
    role: str(t.role),
    task: str(t.task).slice(0, TASK_CHARS),
    after: t.after.filter((a) => typeof a === "string"),
    depth,
    state,
    reason: strOrNull(rec?.reason),
    runId,
    runStatus: run ? run.status : null,
    startedAt,
    endedAt,
    elapsedMs: start !== null && end !== null ? Math.max(0, end - start) : null,
    usage: turned ? { ...run.workerUsage } : null,
    costUsd: turned && typeof run.workerCostUsd === "number" ? run.workerCostUsd : null,
    transitions: run ? cleanTransitions(run.transitions).slice(-MAX_TRANSITIONS) : [],
    segments: [],
    executor: typeof run?.fleet?.executor === "string" ? run.fleet.executor : null,
  };
}

/** When the job started running: its first `running` event, else its first task's start. */
function jobStart(events: readonly JobEvent[]): string | null {
  return events.find((e) => e?.type === "job" && e.state === "running")?.at ?? null;
}

/** One job with every task's state, run, time and cost; null when it does not exist (yet). */
export async function readJob(paths: SpotPaths, jobId: string, now = new Date()): Promise<JobView | null> {
  const loaded = await tryLoad(paths, jobId);
  if (!loaded) return null;
  const { job, state } = loaded;
  const depth = depths(job.tasks);
  const taskViews = await Promise.all(
    job.tasks.map((t) => taskView(paths, t, state.tasks[t.id], depth.get(t.id) ?? 0, now.getTime())),
  );
  const allEvents = (await readEvents(paths, jobId).catch(() => []))
    .filter((e) => typeof e === "object" && e !== null && typeof e.state === "string");
  const events = allEvents.slice(-MAX_EVENTS);
  const segments = taskSegments(taskViews, { jobStart: jobStart(allEvents), now });
  for (const t of taskViews) t.segments = segments.get(t.id) ?? [];
  const starts = taskViews.map((t) => ms(t.startedAt)).filter((n) => n !== null);
  const ends = taskViews.map((t) => t.state === "running" ? now.getTime() : ms(t.endedAt))
    .filter((n) => n !== null);
  const first = starts.length ? Math.min(...starts) : null;
  return {
    ...row(job, state),
    approval: str(job.approval),
    allowWrites: job.allowWrites === true,
    integration: withOutside(
      integrationView(state),
      outsideOf(taskViews, state),
    ),
    taskViews,
    events,
    totals: {
      costUsd: taskViews.reduce((sum, t) => sum + (t.costUsd ?? 0), 0),
      tokensIn: taskViews.reduce((sum, t) => sum + (t.usage?.input ?? 0), 0),
      tokensOut: taskViews.reduce((sum, t) => sum + (t.usage?.output ?? 0), 0),
      elapsedMs: first !== null && ends.length ? Math.max(0, Math.max(...ends) - first) : null,
    },
  };
}
