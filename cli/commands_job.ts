/** The command table, part four: `spot job …`, task graphs (docs/jobs.md). Each prints one JSON object. */
import { lazy } from "../base/lazy.ts";
import { SpotError } from "../errors.ts";
import { type CommandSpec, JSON_OPTION, type Options, text } from "./spec.ts";

type Graphs = typeof import("../graphs/mod.ts");
const graphs = () => lazy<Graphs>("../graphs/mod.ts", import.meta.url);

/** The seed's window: long enough to be useful, short enough that a parent's tool call returns. */
const MAX_WAIT_MS = 3_600_000;

function waitMs(value: string): number {
  const n = Number(value);
  if (Number.isInteger(n) && n >= 0 && n <= MAX_WAIT_MS) return n;
  throw new SpotError(
    "CLI_USAGE",
    `Cannot read "${value}" as a wait: expected whole milliseconds, 0 to ${MAX_WAIT_MS}`,
  );
}

const JOB = { name: "job", help: "the job id that init printed" };

/** Ten years: a bound that catches a typo (a timestamp, a negative) and nothing a person means. */
const MAX_GC_DAYS = 3650;

function days(value: string): number {
  const n = Number(value);
  if (Number.isInteger(n) && n >= 0 && n <= MAX_GC_DAYS) return n;
  throw new SpotError(
    "CLI_USAGE",
    `Cannot read "${value}" as an age: expected whole days, 0 to ${MAX_GC_DAYS}`,
  );
}

const timeoutMs = (o: Options) => typeof o.timeoutMs === "number" ? o.timeoutMs : undefined;

const JOB_COMMANDS: CommandSpec[] = [
  {
    name: "init",
    help: "Check a job file (or - for stdin) and create the job; nothing runs yet",
    args: [{ name: "file", help: "the job (JSON), or - to read it from stdin" }],
    run: (o, cli) => cli.verb("job init", o, async (ctx) => (await graphs()).initJob(ctx, text(o, "file"))),
  },
  {
    name: "add",
    help: "Add one task (a file, or - for stdin) to a job, checked with its graph",
    args: [JOB, { name: "task", help: "the task (JSON), or - to read it from stdin" }],
    run: (o, cli) =>
      cli.verb("job add", o, async (ctx) => (await graphs()).addTask(ctx, text(o, "job"), text(o, "task"))),
  },
  {
    name: "start",
    help: "Start the job's coordinator in the background and return at once",
    args: [JOB],
    run: (o, cli) => cli.verb("job start", o, async (ctx) => (await graphs()).startJob(ctx, text(o, "job"))),
  },
  {
    name: "resume",
    help:
      "Start a coordinator again after one died: what it left running is reconciled, never launched twice",
    args: [JOB],
    run: (o, cli) => cli.verb("job resume", o, async (ctx) => (await graphs()).startJob(ctx, text(o, "job"))),
  },
  {
    name: "wait",
    help: "Wait for the job to settle; fails (JOB_FAILED) when a task did not succeed",
    args: [JOB],
    options: [{
      flags: "--timeout-ms <n>",
      help: "how long to wait at most (default: until the job ends, at most its limits.jobMs)",
      parse: waitMs,
    }],
    run: (o, cli) =>
      cli.verb(
        "job wait",
        o,
        async (ctx) => (await graphs()).waitJob(ctx, text(o, "job"), { timeoutMs: timeoutMs(o) }),
      ),
  },
  {
    name: "status",
    help: "The job's and every task's state (read-only; a table on a terminal)",
    args: [JOB],
    options: [JSON_OPTION],
    run: (o, cli) =>
      cli.humanOrJson(
        "job status",
        o,
        async (ctx) => (await graphs()).jobStatus(ctx, text(o, "job")),
        async (r, style) =>
          (await lazy<typeof import("./render/job_status.ts")>("./render/job_status.ts", import.meta.url))
            .renderJobStatus(r, style),
        { readOnly: true },
      ),
  },
  {
    name: "repair",
    help: "Send a task back for a new attempt with your text; requeues the tasks after it",
    args: [JOB, { name: "id", help: "the task" }, {
      name: "text",
      help: "what to fix, or - to read it from stdin",
    }],
    run: (o, cli) =>
      cli.verb("job repair", o, async (ctx) => {
        const { repairTask, readStdin } = await graphs();
        const said = text(o, "text");
        return repairTask(ctx, text(o, "job"), text(o, "id"), said === "-" ? await readStdin() : said);
      }),
  },
  {
    name: "retry-launch",
    help: "Launch a task again, once, whose worker never started (a failed launch)",
    args: [JOB, { name: "id", help: "the task" }],
    run: (o, cli) =>
      cli.verb(
        "job retry-launch",
        o,
        async (ctx) => (await graphs()).retryLaunch(ctx, text(o, "job"), text(o, "id")),
      ),
  },
  {
    name: "cancel",
    help: "Cancel the job: queued tasks never start, running ones are stopped",
    args: [JOB],
    run: (o, cli) =>
      cli.verb("job cancel", o, async (ctx) => (await graphs()).cancelJob(ctx, text(o, "job"))),
  },
  {
    name: "integrate",
    help: "Land every reviewed builder on the source branch in after order, then run integratedChecks",
    args: [JOB],
    run: (o, cli) =>
      cli.verb("job integrate", o, async (ctx) => (await graphs()).integrateJob(ctx, text(o, "job"))),
  },
  {
    name: "rollback",
    help: "Undo an apply-mode integration from its journal; previews without --confirm",
    args: [JOB],
    options: [{ flags: "--confirm", help: "restore the files (refused when any changed since integration)" }],
    run: (o, cli) =>
      cli.verb(
        "job rollback",
        o,
        async (ctx) => (await graphs()).rollbackJob(ctx, text(o, "job"), { confirm: o.confirm === true }),
      ),
  },
  {
    name: "note",
    help: "Add a note to the job; every task launched after it is told the job's notes",
    args: [JOB, { name: "text", help: "the note (at most 4000 characters), or - to read it from stdin" }],
    run: (o, cli) =>
      cli.verb("job note", o, async (ctx) => (await graphs()).noteJob(ctx, text(o, "job"), text(o, "text"))),
  },
  {
    name: "barrier",
    help: "Wait for the named tasks; fails (BARRIER_FAILED) when one of them did not succeed",
    args: [JOB, { name: "ids", help: "the tasks to wait for", variadic: true }],
    options: [{
      flags: "--timeout-ms <n>",
      help: "how long to wait at most (default: until the job ends, at most its limits.jobMs)",
      parse: waitMs,
    }],
    run: (o, cli) =>
      cli.verb(
        "job barrier",
        o,
        async (ctx) =>
          (await graphs()).barrierJob(ctx, text(o, "job"), o.ids as string[], { timeoutMs: timeoutMs(o) }),
      ),
  },
  {
    name: "unlock",
    help: "Clear the record a stopped coordinator left; refused while one runs",
    args: [JOB],
    run: (o, cli) =>
      cli.verb("job unlock", o, async (ctx) => (await graphs()).unlockJob(ctx, text(o, "job"))),
  },
  {
    name: "cleanup",
    help: "Remove the job's task worktrees that are safe to remove; previews without --confirm",
    args: [JOB],
    options: [{ flags: "--confirm", help: "remove them (runs that must stay are kept, with the reason)" }],
    run: (o, cli) =>
      cli.verb(
        "job cleanup",
        o,
        async (ctx) => (await graphs()).cleanupJob(ctx, text(o, "job"), { confirm: o.confirm === true }),
      ),
  },
  {
    name: "gc",
    help: "Collect settled jobs older than N days: their task worktrees and job directories",
    options: [
      { flags: "--confirm", help: "collect them (a preview otherwise)" },
      { flags: "--older-than-days <n>", help: "untouched for this many days (default 7)", parse: days },
    ],
    run: (o, cli) =>
      cli.verb("job gc", o, async (ctx) =>
        (await graphs()).gcJobs(ctx, {
          confirm: o.confirm === true,
          olderThanDays: typeof o.olderThanDays === "number" ? o.olderThanDays : undefined,
        })),
  },
  {
    name: "coordinate",
    hidden: true,
    help: "Run a job's coordinator (started by job start)",
    args: [JOB],
    run: (o, cli) =>
      cli.verb(
        "job coordinate",
        o,
        async (ctx) => (await graphs()).coordinateJob(ctx, text(o, "job")),
        { interruptible: true },
      ),
  },
];

export const JOB_COMMAND: CommandSpec = {
  name: "job",
  help:
    "Task graphs: init, add, start, resume, wait, status, cancel, repair, retry-launch, integrate, rollback, note, barrier, unlock, cleanup, gc",
  commands: JOB_COMMANDS,
};
