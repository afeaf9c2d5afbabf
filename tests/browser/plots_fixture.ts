/**
 * The runs and the job the plots' browser test draws: five days of runs on three profiles with every kind
 * of outcome (checks passed, failed, two gates, one still running), one run with a dozen transitions, a
 * hash and an INTEGRATION_BLOCKED code, and a job whose middle tasks ran at the same time.
 */
import { appendEvent } from "../../graphs/store.ts";
import type { RunState } from "../../schemas/run_state.ts";
import { fixtureState, writeFixtureRun } from "../fixture_runs.ts";
import { writeFixtureJob } from "../jobs/job_fixture.ts";
import type { SpotPaths } from "../../store/paths.ts";

export const JOB_ID = "job-20250304-100000-plotsa";
/** The run with twelve transitions, a commit and a gate code. */
export const LONG_RUN = "run-parser-trailing-commas-sent-back-twice-then-refused-at-integration";

const at = (day: number, h: number, m = 0, s = 0) => new Date(Date.UTC(2025, 2, day, h, m, s)).toISOString();

function transitions(steps: [string, string][]): RunState["transitions"] {
  let from: string | null = null;
  return steps.map(([to, when]) => {
    const t = { from, to, at: when, reason: `moved to ${to}` } as RunState["transitions"][number];
    from = to;
    return t;
  });
}

type Over = Partial<RunState>;

const RUNS: [string, string, Over][] = [
  ["run-a-cheap", at(1, 9), {
    profile: "cheap",
    adapter: "pi",
    workerCostUsd: 0.012,
    lastVerificationPassed: true,
  }],
  ["run-b-spare", at(1, 11), {
    profile: "spare",
    adapter: "pi",
    status: "failed",
    workerCostUsd: 0.02,
    lastVerificationPassed: false,
    failure: {
      code: "POST_INTEGRATE_VERIFY_FAILED",
      message: "deno test failed on main",
    } as RunState["failure"],
    workerUsage: { input: 5000, output: 900, cacheRead: 0, cacheWrite: 0 },
  }],
  ["run-c-replay", at(2, 10), {
    profile: "replay",
    adapter: "replay",
    workerCostUsd: 0,
    lastVerificationPassed: true,
  }],
  ["run-d-cheap", at(3, 8), {
    profile: "cheap",
    adapter: "pi",
    status: "blocked",
    workerCostUsd: 0.03,
    lastVerificationPassed: false,
    failure: { code: "SCOPE_VIOLATION", message: "touched src/other.ts" } as RunState["failure"],
    workerUsage: { input: 9000, output: 2000, cacheRead: 1000, cacheWrite: 0 },
  }],
  ["run-f-replay", at(5, 9), {
    profile: "replay",
    adapter: "replay",
    status: "running",
    workerCostUsd: 0,
    lastVerificationPassed: null,
    implementationCommit: null,
    integratedCommit: null,
  }],
];

/** Twelve transitions: a run sent back to its worker twice before integration was refused. */
function longRun(): RunState {
  const steps: [string, string][] = [
    ["prepared", at(3, 12, 0)],
    ["running", at(3, 12, 1)],
    ["verifying", at(3, 12, 4)],
    ["selfReviewing", at(3, 12, 5)],
    ["reviewing", at(3, 12, 6)],
    ["revising", at(3, 12, 8)],
    ["verifying", at(3, 12, 10)],
    ["reviewing", at(3, 12, 11)],
    ["revising", at(3, 12, 12)],
    ["verifying", at(3, 12, 15)],
    ["approved", at(3, 12, 16)],
    ["committed", at(3, 12, 16, 30)],
    ["blocked", at(3, 12, 17)],
  ];
  return fixtureState(LONG_RUN, {
    profile: "cheap",
    adapter: "pi",
    // A model name with no place to break, as providers name them: the table has to squeeze other columns.
    model: "deepseek/deepseek-coder-v2-instruct-0724-preview",
    status: "blocked",
    updatedAt: at(3, 12, 17),
    workerCostUsd: 0.041,
    revisionRound: 2,
    lastVerificationPassed: true,
    implementationCommit: "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432",
    integratedCommit: null,
    failure: { code: "INTEGRATION_BLOCKED", message: "the source branch moved" } as RunState["failure"],
    transitions: transitions(steps),
  }, at(3, 12));
}

/** A task run: prepared, its worker, its checks (a builder's), then its end. */
function taskRun(task: string, start: string, worker: string, checks: string | null, end: string): RunState {
  const steps: [string, string][] = [["prepared", start], ["running", worker]];
  if (checks) steps.push(["verifying", checks]);
  // A read-only task's run (no checks) ends succeeded; a builder's is integrated with its job.
  const last = checks ? "integrated" : "succeeded";
  steps.push([last, end]);
  return fixtureState(`${JOB_ID}.${task}`, {
    status: last,
    profile: "replay",
    adapter: "replay",
    workerCostUsd: 0,
    updatedAt: end,
    transitions: transitions(steps),
  }, start);
}

/** Goals as long as real ones: the run table has to share its width out, as it does in use. */
const GOAL =
  "Make the parser accept trailing commas in nested arrays and objects, keep the error positions right, " +
  "and add tests for both cases";

export async function seedPlots(paths: SpotPaths): Promise<void> {
  for (const [id, created, over] of RUNS) {
    await writeFixtureRun(paths, fixtureState(id, { ...over, updatedAt: created }, created), { goal: GOAL });
  }
  await writeFixtureRun(paths, longRun(), { goal: GOAL });
  // scout, then api and ui side by side, then review after both.
  const runs = {
    scout: taskRun("scout", at(4, 10, 0, 5), at(4, 10, 0, 10), null, at(4, 10, 1)),
    api: taskRun("api", at(4, 10, 1, 5), at(4, 10, 1, 10), at(4, 10, 3), at(4, 10, 4)),
    ui: taskRun("ui", at(4, 10, 1, 20), at(4, 10, 1, 30), at(4, 10, 2), at(4, 10, 2, 30)),
    review: taskRun("review", at(4, 10, 4, 20), at(4, 10, 4, 25), null, at(4, 10, 5)),
  };
  for (const run of Object.values(runs)) await writeFixtureRun(paths, run);
  const record = (task: keyof typeof runs) => ({
    state: "succeeded" as const,
    runId: runs[task].runId,
    startedAt: runs[task].createdAt,
    endedAt: runs[task].updatedAt,
  });
  await writeFixtureJob(paths, {
    jobId: JOB_ID,
    createdAt: at(4, 9, 59),
    status: "succeeded",
    allowWrites: true,
    tasks: [
      { id: "scout", role: "scout" },
      { id: "api", role: "builder", after: ["scout"] },
      { id: "ui", role: "builder", after: ["scout"] },
      { id: "review", role: "reviewer", after: ["api", "ui"] },
    ],
    records: { scout: record("scout"), api: record("api"), ui: record("ui"), review: record("review") },
  });
  await appendEvent(paths, JOB_ID, { at: at(4, 10), type: "job", state: "running" });
  // More than nine transitions, so the job page's list numbers past nine.
  for (const task of Object.keys(runs) as (keyof typeof runs)[]) {
    await appendEvent(paths, JOB_ID, { at: runs[task].createdAt, type: "task", id: task, state: "running" });
  }
  await appendEvent(paths, JOB_ID, { at: at(4, 10, 5), type: "job", state: "succeeded" });
}

/** A user who only ever ran the built-in replay worker, on the default config. */
export async function seedReplayOnly(paths: SpotPaths): Promise<void> {
  for (let i = 1; i <= 3; i++) {
    await writeFixtureRun(
      paths,
      // One day of data, as a newcomer's first hour with the replay worker gives.
      fixtureState(`run-replay-${i}`, { profile: "replay", adapter: "replay" }, at(1, 9 + i)),
    );
  }
}
