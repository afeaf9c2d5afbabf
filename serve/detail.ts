/**
 * What the expanded row of one run shows, read from its directory on demand.
 * Every file is worker- or spot-written JSON that may be missing or torn, so
 * each field is picked out with a type check instead of being trusted.
 */
import { join } from "../base/path.ts";
import type { SpotPaths } from "../store/paths.ts";
import { RUN_ID_PATTERN } from "../schemas/constants.ts";
import { asRunState } from "../store/run_entry.ts";
import { PI_EVENTS_FILE } from "../store/legacy_run.ts";
import { stripTerminal } from "../store/worker_log.ts";
import type { RunState } from "../schemas/run_state.ts";

/** Enough of worker.log to see what a worker is doing now, without reading a huge log. */
export const LOG_TAIL_BYTES = 16_384;
export const LOG_TAIL_LINES = 40;

export interface CheckView {
  argv: string;
  passed: boolean;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number | null;
}

export interface FindingView {
  priority: string;
  file: string;
  line: number | null;
  problem: string;
}

export interface RunDetail {
  state: RunState;
  goal: string | null;
  allowedPaths: string[];
  checks: CheckView[];
  verificationPassed: boolean | null;
  scanIssues: { code: string; file: string | null; message: string }[];
  changedFiles: string[];
  selfReview: { summary: string; criteria: { criterion: string; status: string }[] } | null;
  review: { verdict: string; summary: string; findings: FindingView[] } | null;
  logTail: string[];
  /** The job whose task this run is (`<JOB>.<task>`), when that job is on record. */
  job: { jobId: string; taskId: string } | null;
  /** When the files were read: an active run's current phase lasts until then. */
  readAt?: Date;
  /** False where only the numbers of its time per phase are shown (the offline file's older runs). */
  phaseChart?: boolean;
}

type Json = Record<string, unknown>;

function obj(value: unknown): Json | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Json : null;
}
function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
function str(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : fallback;
}
function numOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch {
    return null;
  }
}

/** The last lines of a log, read from its end, with terminal escapes removed. */
export async function tailLog(path: string, maxLines = LOG_TAIL_LINES): Promise<string[]> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return [];
  }
  try {
    const size = (await file.stat()).size;
    const start = Math.max(0, size - LOG_TAIL_BYTES);
    await file.seek(start, Deno.SeekMode.Start);
    const buf = new Uint8Array(size - start);
    let read = 0;
    while (read < buf.length) {
      const n = await file.read(buf.subarray(read));
      if (n === null) break;
      read += n;
    }
    const lines = new TextDecoder().decode(buf.subarray(0, read)).split("\n");
    if (start > 0) lines.shift(); // the first line is probably cut
    return lines.filter((l) => l.trim() !== "").slice(-maxLines).map(stripTerminal);
  } finally {
    file.close();
  }
}

function findings(value: unknown): FindingView[] {
  return arr(value).map(obj).filter((f): f is Json => f !== null).map((f) => ({
    priority: str(f.priority, "?"),
    file: str(f.file),
    line: numOrNull(f.line),
    problem: str(f.problem),
  }));
}

/** A job task's run id is `<job id>.<task id>` (graphs/coordinate.ts). */
const JOB_TASK_RUN = /^(job-\d{8}-\d{6}-[0-9a-f]{6})\.([a-z][a-z0-9-]{0,31})$/;

async function jobOf(paths: SpotPaths, runId: string): Promise<RunDetail["job"]> {
  const m = JOB_TASK_RUN.exec(runId);
  if (!m) return null;
  const known = await Deno.stat(join(paths.stateRoot, "jobs", m[1], "job.json")).then(
    () => true,
    () => false,
  );
  return known ? { jobId: m[1], taskId: m[2] } : null;
}

/** Whether the run has a state.json at all: a task's run id is known before its run is created. */
export async function runStateExists(paths: SpotPaths, runId: string): Promise<boolean> {
  if (!RUN_ID_PATTERN.test(runId)) return false;
  return await Deno.lstat(join(paths.runsDir, runId, "state.json")).then(() => true, () => false);
}

export async function loadRunDetail(paths: SpotPaths, runId: string): Promise<RunDetail | null> {
  const dir = join(paths.runsDir, runId);
  const state = asRunState(await readJson(join(dir, "state.json")), runId);
  if (!state) return null;
  const [task, verification, selfReview, review] = (await Promise.all(
    ["task.json", "verification.json", "self-review.json", "review.json"].map((f) => readJson(join(dir, f))),
  )).map(obj);
  const security = obj(verification?.security);
  let logTail = await tailLog(join(dir, "worker.log"));
  // The original pi-worker's older runs have no worker.log, only the stream pi printed.
  if (logTail.length === 0 && state.origin) logTail = await tailLog(join(dir, PI_EVENTS_FILE));
  return {
    state,
    readAt: new Date(),
    goal: task ? str(task.goal) : null,
    allowedPaths: arr(task?.allowedPaths).map((p) => str(p)),
    verificationPassed: typeof verification?.passed === "boolean" ? verification.passed : null,
    checks: arr(verification?.commands).map(obj).filter((c): c is Json => c !== null).map((c) => ({
      argv: arr(c.argv).map((a) => str(a)).join(" "),
      passed: c.passed === true,
      // `code` is what the original pi-worker called it.
      exitCode: numOrNull(c.exitCode) ?? numOrNull(c.code),
      timedOut: c.timedOut === true,
      durationMs: numOrNull(c.durationMs),
    })),
    scanIssues: arr(security?.issues).map(obj).filter((i): i is Json => i !== null).map((i) => ({
      code: str(i.code, "?"),
      file: typeof i.file === "string" ? i.file : null,
      message: str(i.message),
    })),
    changedFiles: arr(security?.changedFiles).map((f) => str(f)),
    selfReview: selfReview
      ? {
        summary: str(selfReview.summary),
        criteria: arr(selfReview.acceptanceEvidence).map(obj).filter((c): c is Json => c !== null).map((
          c,
        ) => ({
          criterion: str(c.criterion),
          status: str(c.status, "?"),
        })),
      }
      : null,
    review: review
      ? {
        verdict: str(review.verdict, "?"),
        summary: str(review.summary),
        findings: findings(review.findings),
      }
      : null,
    logTail,
    job: await jobOf(paths, runId),
  };
}
