/**
 * A job on disk: `<state>/jobs/<JOB>/` holds `job.json` (the job as accepted, its cwd resolved), `state.json`
 * (the job's and every task's state, replaced atomically under `job.lock`), `events.jsonl` (every transition)
 * and `coordinator.lock`, held by the live coordinator (the kernel releases it when that process dies, so a
 * `kill -9` cannot leave a job stuck). Each task's run lives in the run store like any other run.
 */
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import type { Job } from "../schemas/job/job.ts";
import type { TaskResult } from "../schemas/job/result.ts";
import { RUN_ID_PATTERN } from "../schemas/constants.ts";
import { appendJsonLine, readJsonFile, readJsonLines, writeJsonAtomic } from "../store/files.ts";
import { type HeldLock, lockBlocking, withLock } from "../store/lock.ts";
import type { SpotPaths } from "../store/paths.ts";
import type { TaskStateName } from "./schedule.ts";
import type { JobBase } from "./launch/base.ts";

/** What a reviewer was shown: its verdicts are bound to these fingerprints. */
export interface ReviewedChange {
  /** The combined patch runs from here (the job's base, or the start of a `reviewBase` range)... */
  from: string;
  /** ...to the reviewer's worktree. */
  to: string;
  /** sha256 of the combined patch it was given. */
  patchSha256: string;
  /** The fingerprint shown for each builder reviewed (or, for `reviewBase`, for the reviewer's own id). */
  fingerprints: Record<string, string>;
}

/** A reviewer's finding handed to the repair of the builder it is about (graphs/repair.ts). */
export interface RepairFinding {
  reviewer: string;
  severity: string;
  message: string;
  evidence?: string;
  requiredChange?: string;
}

export type JobStatus = "created" | "running" | "succeeded" | "failed" | "cancelled";

export interface TaskRecord {
  state: TaskStateName;
  reason?: string;
  /** The spot run that carries the task, once started. */
  runId?: string;
  startedAt?: string;
  endedAt?: string;
  /** The worker's final text (a scout's or reviewer's answer), bounded. */
  summary?: string;
  /** What a builder changed, relative to the repository. */
  changedFiles?: string[];
  /** The result its worker reported (schemas/job/result.ts), once read. */
  result?: TaskResult;
  /** A builder's: the digest of its verified diff and its result; a reviewer must echo it (REVIEW_STALE). */
  fingerprint?: string;
  /** A succeeded builder's: where its run's diff counts from (the job's base plus what it built on). */
  startCommit?: string;
  /** A succeeded builder's: its verified tree on `startCommit`, at `refs/spot/<job>/tasks/<task>`. */
  verifiedCommit?: string;
  /** A succeeded reviewer's: the change it was shown, its verdicts bound to those fingerprints. */
  reviewed?: ReviewedChange;
  /** Its last attempt, kept by a repair: the next one continues from its verified work, or is shown its diff. */
  previous?: { attempt: number; runId?: string; startCommit?: string; verifiedCommit?: string };
  /** The share of the job's cost budget held while it runs (graphs/launch/budget.ts). */
  reservedUsd?: number;
  /** What its worker turns cost, once it ended. */
  costUsd?: number;
  /** Its attempt (1 until `spot job repair` sends it back). */
  attempt?: number;
  /** What each repair asked (graphs/repair.ts), told to every later attempt. */
  repairs?: { attempt: number; at: string; text: string; previous: string; findings?: RepairFinding[] }[];
  /** Its launch was retried once (`spot job retry-launch`). */
  relaunched?: boolean;
  /** The runs of its earlier attempts and launches, oldest first (cleanup and gc remove them too). */
  previousRuns?: string[];
}

/**
 * What `spot job integrate` landed, recorded only once all of it did (a landing is all or nothing): the
 * builders' commits on the source branch in order (commit mode), or the files written into the checkout
 * (apply mode), and the job's checks, which passed on exactly that result before it landed.
 */
export interface JobIntegration {
  mode: "commit" | "apply";
  at: string;
  /** The commit the landing was built on: the branch's HEAD (commit mode) or the job's base (apply mode). */
  onto?: string;
  /** Commit mode: the builders' commits on the source branch, in order. */
  commits?: { task: string; runId: string; commit: string }[];
  /** Apply mode: the files written into the checkout (journaled for rollback). */
  files?: string[];
  /** Apply mode: the builders whose work those files are, in order. */
  builders?: { task: string; runId: string }[];
  integratedChecks: "passed" | "failed" | "none";
  rolledBackAt?: string;
}

/** The last `spot job integrate` that landed nothing: what refused it. Cleared by one that lands. */
export interface IntegrationFailure {
  at: string;
  /** The builder it failed on, when it was one builder's (its commit, its checks); absent for the job's own. */
  task?: string;
  code: string;
  reason: string;
}

/** Whether the task's run (its current one unless named) is part of a landing that stands (not rolled back). */
export function taskLanded(
  state: Pick<JobState, "integration" | "tasks">,
  taskId: string,
  runId = state.tasks[taskId]?.runId,
): boolean {
  const i = state.integration;
  if (!i || i.rolledBackAt || !runId) return false;
  // An apply-mode record from before `builders` was kept landed every builder of the job.
  if (i.mode === "apply" && !i.builders) return true;
  return [...(i.commits ?? []), ...(i.builders ?? [])].some((c) => c.task === taskId && c.runId === runId);
}

export interface JobState {
  schemaVersion: 1;
  jobId: string;
  status: JobStatus;
  reason?: string;
  createdAt: string;
  updatedAt: string;
  coordinator?: { pid: number; startedAt: string };
  /** When a coordinator first took the job: `limits.jobMs` counts from here, across restarts. */
  startedAt?: string;
  /** The commit every task starts from, taken when the job first started (graphs/launch/base.ts). */
  base?: JobBase;
  tasks: Record<string, TaskRecord>;
  integration?: JobIntegration;
  integrationFailure?: IntegrationFailure;
  /** What the job's notify command did when the job settled (graphs/notify.ts). */
  notified?: { at: string; exitCode: number | null; timedOut?: boolean; error?: string; stderr?: string };
}

/** A job as stored: the accepted job with its id and resolved repository. */
export type StoredJob = Job & { jobId: string; cwd: string };

export interface JobEvent {
  at: string;
  type: "job" | "task" | "note";
  id?: string;
  state: string;
  reason?: string;
  runId?: string;
}

/** The job stops (a cancel, its own limits): queued tasks never start; its coordinator interrupts running ones. */
export function cancelQueued(state: JobState, reason: string, at: string): JobState {
  const tasks = Object.fromEntries(
    Object.entries(state.tasks).map((
      [id, t],
    ) => [id, t.state === "queued" ? { ...t, state: "cancelled" as const } : t]),
  );
  return { ...state, status: "cancelled", reason, updatedAt: at, tasks };
}

/** What a task's caller is told of it: its id, role and state, and the reason, run and changes it has. */
export function taskOutline(task: { id: string; role: string }, r: TaskRecord) {
  return {
    id: task.id,
    role: task.role,
    state: r.state,
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.runId ? { runId: r.runId } : {}),
    ...(r.changedFiles ? { changedFiles: r.changedFiles } : {}),
  };
}

export function jobsDir(paths: SpotPaths): string {
  return join(paths.stateRoot, "jobs");
}

export function jobDir(paths: SpotPaths, jobId: string): string {
  if (!RUN_ID_PATTERN.test(jobId) || jobId.includes("..")) {
    throw new SpotError("JOB_NOT_FOUND", `Cannot find job "${jobId}": not a job id`, { details: { jobId } });
  }
  return join(jobsDir(paths), jobId);
}

export const jobFile = (paths: SpotPaths, jobId: string, name: string) => join(jobDir(paths, jobId), name);

export function newJobId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `job-${stamp}-${crypto.randomUUID().slice(0, 6)}`;
}

export async function createJob(paths: SpotPaths, job: StoredJob, at: string): Promise<JobState> {
  await Deno.mkdir(jobDir(paths, job.jobId), { recursive: true, mode: 0o700 });
  const state: JobState = {
    schemaVersion: 1,
    jobId: job.jobId,
    status: "created",
    createdAt: at,
    updatedAt: at,
    tasks: Object.fromEntries(job.tasks.map((t) => [t.id, { state: "queued" }])),
  };
  await writeJsonAtomic(jobFile(paths, job.jobId, "job.json"), job);
  await writeJsonAtomic(jobFile(paths, job.jobId, "state.json"), state);
  await appendEvent(paths, job.jobId, { at, type: "job", state: "created" });
  return state;
}

export async function loadJob(paths: SpotPaths, jobId: string): Promise<{ job: StoredJob; state: JobState }> {
  const job = await readJsonFile<StoredJob>(jobFile(paths, jobId, "job.json"));
  const state = await readJsonFile<JobState>(jobFile(paths, jobId, "state.json"));
  if (!job || !state) {
    throw new SpotError("JOB_NOT_FOUND", `Cannot find job "${jobId}": no such job in ${jobsDir(paths)}`, {
      details: { jobId },
    });
  }
  return { job, state };
}

/** Short critical sections of every writer of the job (coordinator, add, cancel). */
export function jobLock(paths: SpotPaths, jobId: string): Promise<HeldLock> {
  return lockBlocking(jobFile(paths, jobId, "job.lock"));
}

/** Reads, changes and writes the job under its lock; `change` may also rewrite job.json (add). */
export function updateJob(
  paths: SpotPaths,
  jobId: string,
  change: (job: StoredJob, state: JobState) => { job?: StoredJob; state: JobState },
): Promise<{ job: StoredJob; state: JobState }> {
  return withLock(jobLock(paths, jobId), async () => {
    const loaded = await loadJob(paths, jobId);
    const next = change(loaded.job, loaded.state);
    // A change that returns the state it was given changed nothing: nothing is written (an idle tick).
    if (next.state === loaded.state && !next.job) return loaded;
    if (next.job) await writeJsonAtomic(jobFile(paths, jobId, "job.json"), next.job);
    await writeJsonAtomic(jobFile(paths, jobId, "state.json"), next.state);
    return { job: next.job ?? loaded.job, state: next.state };
  });
}

export function appendEvent(paths: SpotPaths, jobId: string, event: JobEvent): Promise<void> {
  return appendJsonLine(jobFile(paths, jobId, "events.jsonl"), event);
}

export function readEvents(paths: SpotPaths, jobId: string): Promise<JobEvent[]> {
  return readJsonLines<JobEvent>(jobFile(paths, jobId, "events.jsonl"));
}

/** True while a coordinator holds the job (its lock is taken). */
export async function coordinatorAlive(paths: SpotPaths, jobId: string): Promise<boolean> {
  const file = await Deno.open(jobFile(paths, jobId, "coordinator.lock"), {
    read: true,
    write: true,
    create: true,
  });
  try {
    const free = await file.tryLock(true);
    return !free;
  } finally {
    file.close();
  }
}

/**
 * How long a hold keeps trying: `coordinatorAlive` (every `status` and `wait` poll) takes the lock for a moment
 * to test it, and a coordinator starting in that moment must not take it for another coordinator's and exit.
 */
export const HOLD_RETRY_MS = 1_000;

/** The coordinator's hold on the job; JOB_RUNNING when another has it (for longer than a probe does). */
export async function holdCoordinator(
  paths: SpotPaths,
  jobId: string,
  retryMs = HOLD_RETRY_MS,
): Promise<HeldLock> {
  const file = await Deno.open(jobFile(paths, jobId, "coordinator.lock"), {
    read: true,
    write: true,
    create: true,
  });
  const end = Date.now() + retryMs;
  let taken = await file.tryLock(true);
  while (!taken && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 10));
    taken = await file.tryLock(true);
  }
  if (!taken) {
    file.close();
    throw new SpotError(
      "JOB_RUNNING",
      `Cannot coordinate job "${jobId}": its coordinator is already running`,
      {
        details: { jobId, nextCommand: `spot job status ${jobId}` },
      },
    );
  }
  return { release: () => file.close() };
}
