import assert from "node:assert/strict";
import { JobTask } from "../schemas/job/task.ts";
import { attemptRunId, planRepair, repairInstructions } from "./repair.ts";
import type { JobState, TaskRecord } from "./store.ts";

const t = (id: string, role: string, after: string[] = []) =>
  JobTask.parse({
    id,
    role,
    task: `do ${id}`,
    acceptance: ["done"],
    after,
    ...(role === "builder" ? { ownership: [id], noChecksReason: "n" } : {}),
    ...(role === "reviewer" ? { reviewOf: after[0] } : {}),
  });
const tasks = [t("api", "builder"), t("review", "reviewer", ["api"]), t("docs", "builder", ["review"])];
const state = (records: Record<string, TaskRecord>, extra: Partial<JobState> = {}) => ({
  status: "failed" as const,
  tasks: records,
  ...extra,
});
const ran = (s: TaskRecord["state"], runId = "r"): TaskRecord => ({ state: s, runId });

Deno.test("planRepair() requeues the reviewers and blocked tasks after it", () => {
  const plan = planRepair(
    tasks,
    state({ api: ran("failed"), review: { state: "blocked" }, docs: { state: "blocked" } }),
    "api",
    3,
  );
  assert.deepEqual(plan, { requeue: ["review", "docs"] });
  assert.deepEqual(
    planRepair(
      tasks,
      state({ api: ran("succeeded"), review: ran("succeeded"), docs: { state: "queued" } }),
      "api",
      3,
    ),
    { requeue: ["review"] },
    "a reviewer that ran is requeued: its verdict named the old fingerprint",
  );
});

Deno.test("planRepair() refuses what would undo work built on the old attempt, and past the limit", () => {
  const refused = (
    records: Record<string, TaskRecord>,
    extra: Partial<JobState> = {},
    id = "api",
    limit = 3,
  ) => {
    const plan = planRepair(tasks, state(records, extra), id, limit);
    return "refused" in plan ? plan.refused : "";
  };
  const done = { api: ran("succeeded"), review: ran("succeeded") };
  assert.match(refused({ ...done, docs: ran("succeeded") }), /"docs" after it already ran/);
  assert.match(refused({ ...done, docs: ran("running") }), /"docs" after it is running/);
  assert.match(refused({ ...done, docs: { state: "cancelled" } }), /"docs" after it was cancelled/);
  assert.match(refused({ ...done, docs: { state: "queued" } }, { status: "cancelled" }), /cancelled/);
  assert.match(
    refused({ ...done, docs: { state: "queued" } }, {
      integration: { mode: "commit", at: "x", integratedChecks: "none" },
    }),
    /integrated; roll it back first/,
  );
  assert.match(
    refused({ api: ran("running"), review: { state: "queued" }, docs: { state: "queued" } }),
    /is running/,
  );
  assert.match(refused({ ...done, docs: { state: "queued" } }, {}, "nope"), /no task "nope"/);
  assert.match(
    refused(
      { api: { ...ran("failed"), attempt: 3 }, review: { state: "blocked" }, docs: { state: "blocked" } },
      {},
      "api",
      2,
    ),
    /used its 2 repair\(s\)/,
  );
});

Deno.test("attemptRunId() and repairInstructions()", () => {
  assert.equal(attemptRunId("job-1", "api", 1), "job-1.api");
  assert.equal(attemptRunId("job-1", "api", 2), "job-1.api-a2");
  assert.equal(attemptRunId("job-1", "api", 1, true), "job-1.api-relaunch");
  assert.deepEqual(
    repairInstructions({
      state: "queued",
      repairs: [{ attempt: 2, at: "t", text: "x must be 2", previous: "failed: checks" }],
    }),
    ["Repair (attempt 2): your attempt 1 ended failed: checks. The parent asks: x must be 2"],
  );
});
