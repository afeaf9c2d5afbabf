/** `spot job …`: task graphs (docs/jobs.md), one JSON object each. */
import { lazy } from "../base/lazy.ts";
import { SpotError } from "../errors.ts";
import { doc, flag, list, number, text } from "./field.ts";
import { jobId, json } from "./common.ts";
import { docFile, noStdin } from "./inputs.ts";
import { verb, type VerbIo } from "./verb.ts";
import { coordinate, QUEUE_ERRORS } from "./fleet.ts";

const graphs = () => lazy<typeof import("../graphs/mod.ts")>("../graphs/mod.ts", import.meta.url);

/** The seed's window: long enough to be useful, short enough that a parent's tool call returns. */
const MAX_WAIT_MS = 3_600_000;
/** Ten years: a bound that catches a typo (a timestamp, a negative) and nothing a person means. */
const MAX_GC_DAYS = 3650;

function bounded(what: string, unit: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (Number.isInteger(n) && n >= 0 && n <= max) return n;
    throw new SpotError(
      "CLI_USAGE",
      `Cannot read "${value}" as ${what}: expected whole ${unit}, 0 to ${max}`,
    );
  };
}

const timeoutMs = number(
  "how long to wait at most, in milliseconds (default: until the job ends, at most its limits.jobMs)",
  {
    cli: "--timeout-ms <n>",
    int: true,
    min: 0,
    max: MAX_WAIT_MS,
    parse: bounded("a wait", "milliseconds", MAX_WAIT_MS),
  },
);
const taskId = text("the task's id in the job", { required: true, cli: "<id>" });
const confirm = (what: string) => flag(what);
const EXAMPLE_JOB = "job-20250101-120000-a1b2c3";
const JOB_ERRORS = ["JOB_NOT_FOUND"] as const;

/** An MCP call returns before a client's usual 60 s request timeout; the CLI waits for the end. */
const mcpWait = (io: VerbIo) => io.face === "mcp" ? 50_000 : undefined;

export const JOB_VERBS = [
  verb({
    name: "job init",
    summary: "Check a job file (or - for stdin) and create the job; nothing runs yet",
    input: {
      job: doc("job", "the job (schemas/job/job.schema.json)", {
        required: true,
        cli: "<file>",
        stdin: true,
        complete: "file",
      }),
    },
    errors: ["JOB_INVALID", "JOB_CYCLE", "OWNERSHIP_OVERLAP", "NOT_A_REPOSITORY"],
    cwd: true,
    examples: ["spot job init job.json"],
    run: async (ctx, i, io) => (await graphs()).initJob(ctx, docFile(ctx, io, "job", i.job)),
  }),
  verb({
    name: "job add",
    summary: "Add one task (a file, or - for stdin) to a job, checked with its graph",
    input: {
      jobId,
      task: doc("job-task", "the task (schemas/job/job-task.schema.json)", {
        required: true,
        cli: "<task>",
        stdin: true,
        complete: "file",
      }),
    },
    errors: [...JOB_ERRORS, "JOB_INVALID", "JOB_CYCLE", "OWNERSHIP_OVERLAP"],
    cwd: true,
    examples: [`spot job add ${EXAMPLE_JOB} task.json`],
    run: async (ctx, i, io) => (await graphs()).addTask(ctx, i.jobId, docFile(ctx, io, "job-task", i.task)),
  }),
  verb({
    name: "job start",
    summary: "Start the job's coordinator in the background and return at once",
    input: { jobId },
    errors: [...JOB_ERRORS, "JOB_RUNNING", "STEP_FAILED"],
    examples: [`spot job start ${EXAMPLE_JOB}`],
    run: async (ctx, i) => (await graphs()).startJob(ctx, i.jobId),
  }),
  verb({
    name: "job resume",
    summary:
      "Start a coordinator again after one died: what it left running is reconciled, never launched twice",
    input: { jobId },
    errors: [...JOB_ERRORS, "JOB_RUNNING", "STEP_FAILED"],
    examples: [`spot job resume ${EXAMPLE_JOB}`],
    run: async (ctx, i) => (await graphs()).startJob(ctx, i.jobId),
  }),
  verb({
    name: "job wait",
    summary: "Wait for the job to settle; fails (JOB_FAILED) when a task did not succeed",
    about: "Without timeoutMs it waits until the job ends (over MCP: 50 s, under a client's request " +
      "timeout); with it, it returns waiting:true when the job had not settled by then: call it again",
    input: { jobId, timeoutMs },
    errors: [...JOB_ERRORS, "JOB_FAILED", "JOB_TIMEOUT", "JOB_NOT_RUNNING"],
    annotations: { readOnly: true, idempotent: true },
    examples: [`spot job wait ${EXAMPLE_JOB} --timeout-ms 60000`],
    run: async (ctx, i, io) =>
      (await graphs()).waitJob(ctx, i.jobId, { timeoutMs: i.timeoutMs ?? mcpWait(io) }),
  }),
  verb({
    name: "job status",
    summary: "The job's and every task's state (read-only; a table on a terminal)",
    input: { jobId, json },
    errors: [...JOB_ERRORS],
    annotations: { readOnly: true, idempotent: true },
    human: true,
    looks: true,
    examples: [`spot job status ${EXAMPLE_JOB}`],
    run: async (ctx, i) => (await graphs()).jobStatus(ctx, i.jobId),
  }),
  verb({
    name: "job repair",
    summary: "Send a task back for a new attempt with your text; requeues the tasks after it",
    input: {
      jobId,
      taskId,
      text: text("what to fix, or - to read it from stdin", { required: true, cli: "<text>", stdin: true }),
    },
    errors: [...JOB_ERRORS, "REPAIR_REFUSED", "JOB_INVALID"],
    examples: [`spot job repair ${EXAMPLE_JOB} api "keep the old signature of add()"`],
    run: async (ctx, i, io) => {
      const { repairTask, readStdin } = await graphs();
      const said = noStdin(io, i.text);
      return repairTask(ctx, i.jobId, i.taskId, said === "-" ? await readStdin() : said);
    },
  }),
  verb({
    name: "job retry-launch",
    summary: "Launch a task again, once, whose worker never started (a failed launch)",
    input: { jobId, taskId },
    errors: [...JOB_ERRORS, "REPAIR_REFUSED"],
    examples: [`spot job retry-launch ${EXAMPLE_JOB} api`],
    run: async (ctx, i) => (await graphs()).retryLaunch(ctx, i.jobId, i.taskId),
  }),
  verb({
    name: "job cancel",
    summary: "Cancel the job: queued tasks never start, running ones are stopped",
    input: { jobId },
    errors: [...JOB_ERRORS],
    annotations: { destructive: true, idempotent: true },
    examples: [`spot job cancel ${EXAMPLE_JOB}`],
    run: async (ctx, i) => (await graphs()).cancelJob(ctx, i.jobId),
  }),
  verb({
    name: "job integrate",
    summary:
      "Land every approved builder on the source branch in after order, or none; then integratedChecks",
    input: { jobId },
    errors: [
      ...JOB_ERRORS,
      "JOB_INVALID",
      "STATE_INVALID",
      "REVIEW_GATE",
      "REVIEW_STALE",
      "DIFF_CHANGED",
      "INTEGRATION_BLOCKED",
      "POST_INTEGRATE_VERIFY_FAILED",
      "SOURCE_CHANGED",
      "LANDING_BUSY",
    ],
    annotations: { idempotent: true },
    examples: [`spot job integrate ${EXAMPLE_JOB}`],
    run: async (ctx, i) => (await graphs()).integrateJob(ctx, i.jobId),
  }),
  verb({
    name: "job rollback",
    summary: "Undo an apply-mode integration from its journal; previews without --confirm",
    input: { jobId, confirm: confirm("restore the files (refused when any changed since integration)") },
    errors: [...JOB_ERRORS, "ROLLBACK_REFUSED", "LANDING_BUSY"],
    annotations: { destructive: true },
    examples: [`spot job rollback ${EXAMPLE_JOB} --confirm`],
    run: async (ctx, i) => (await graphs()).rollbackJob(ctx, i.jobId, { confirm: i.confirm === true }),
  }),
  verb({
    name: "job note",
    summary: "Add a note to the job; every task launched after it is told the job's notes",
    input: {
      jobId,
      text: text("the note (at most 4000 characters), or - to read it from stdin", {
        required: true,
        cli: "<text>",
        stdin: true,
      }),
    },
    errors: [...JOB_ERRORS, "JOB_INVALID"],
    examples: [`spot job note ${EXAMPLE_JOB} "Keep the public API unchanged"`],
    run: async (ctx, i, io) => (await graphs()).noteJob(ctx, i.jobId, noStdin(io, i.text)),
  }),
  verb({
    name: "job barrier",
    summary: "Wait for the named tasks; fails (BARRIER_FAILED) when one of them did not succeed",
    input: { jobId, taskIds: list("the tasks to wait for", { required: true, cli: "<ids...>" }), timeoutMs },
    errors: [...JOB_ERRORS, "BARRIER_FAILED", "JOB_TIMEOUT", "JOB_INVALID"],
    annotations: { readOnly: true, idempotent: true },
    examples: [`spot job barrier ${EXAMPLE_JOB} api ui --timeout-ms 60000`],
    run: async (ctx, i, io) =>
      (await graphs()).barrierJob(ctx, i.jobId, i.taskIds, { timeoutMs: i.timeoutMs ?? mcpWait(io) }),
  }),
  verb({
    name: "job unlock",
    summary: "Clear the record a stopped coordinator left; refused while one runs",
    input: { jobId },
    errors: [...JOB_ERRORS, "JOB_RUNNING"],
    annotations: { idempotent: true },
    examples: [`spot job unlock ${EXAMPLE_JOB}`],
    run: async (ctx, i) => (await graphs()).unlockJob(ctx, i.jobId),
  }),
  verb({
    name: "job cleanup",
    summary: "Remove the job's task worktrees that are safe to remove; previews without --confirm",
    input: { jobId, confirm: confirm("remove them (runs that must stay are kept, with the reason)") },
    errors: [...JOB_ERRORS, "RUN_LOCKED", "JOB_RUNNING"],
    annotations: { destructive: true, idempotent: true },
    examples: [`spot job cleanup ${EXAMPLE_JOB} --confirm`],
    run: async (ctx, i) => (await graphs()).cleanupJob(ctx, i.jobId, { confirm: i.confirm === true }),
  }),
  verb({
    name: "job gc",
    summary: "Collect settled jobs older than N days: their task worktrees and job directories",
    input: {
      confirm: confirm("collect them (a preview otherwise)"),
      olderThanDays: number("untouched for this many days (default 7)", {
        cli: "--older-than-days <n>",
        int: true,
        min: 0,
        max: MAX_GC_DAYS,
        parse: bounded("an age", "days", MAX_GC_DAYS),
      }),
    },
    errors: ["JOB_RUNNING"],
    annotations: { destructive: true, idempotent: true },
    examples: ["spot job gc --older-than-days 14"],
    run: async (ctx, i) =>
      (await graphs()).gcJobs(ctx, { confirm: i.confirm === true, olderThanDays: i.olderThanDays }),
  }),
  verb({
    name: "job coordinate",
    summary: "Run a job's coordinator (started by job start)",
    input: { jobId },
    about: "With the nats queue configured, the tasks' turns go to the fleet's executors (docs/fleet.md)",
    errors: [...JOB_ERRORS, "JOB_RUNNING", ...QUEUE_ERRORS],
    annotations: { long: true },
    faces: ["cli"],
    hidden: true,
    examples: [`spot job coordinate ${EXAMPLE_JOB}`],
    run: (ctx, i) => coordinate(ctx, i.jobId),
  }),
] as const;
