import assert from "node:assert/strict";
import { JobTask } from "../schemas/job/task.ts";
import { attemptRunId, planRepair, repairInstructions, reviewFindings } from "./repair.ts";
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

const asked = (attempt: number) => ({ attempt, at: "x", text: "fix", previous: "failed" });

Deno.test("planRepair() requeues the tasks after it that ran: their work was built on the old attempt", () => {
  const done = { api: ran("succeeded"), review: ran("succeeded") };
  assert.deepEqual(planRepair(tasks, state({ ...done, docs: ran("succeeded") }), "api", 3), {
    requeue: ["review", "docs"],
  });
  // Requeued tasks take a new attempt but no repair of the job's limit: only the parent's repairs count.
  const again = {
    api: { ...ran("succeeded"), attempt: 2, repairs: [asked(2)] },
    review: { ...ran("succeeded"), attempt: 2 },
  };
  assert.deepEqual(planRepair(tasks, state({ ...again, docs: { ...ran("failed"), attempt: 2 } }), "api", 2), {
    requeue: ["review", "docs"],
  });
});

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
      {
        api: { ...ran("failed"), attempt: 3, repairs: [asked(2), asked(3)] },
        review: { state: "blocked" },
        docs: { state: "blocked" },
      },
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

Deno.test("reviewFindings() hands a repair what its reviewers found about it, and repairInstructions() tells it", () => {
  const graph = [
    t("api", "builder"),
    t("ui", "builder"),
    JobTask.parse({ id: "both", role: "reviewer", task: "r", acceptance: ["a"], after: ["api", "ui"] }),
    t("other", "reviewer", ["ui"]),
  ];
  const found = (findings: unknown[]) => ({ state: "succeeded" as const, result: { findings } as never });
  const records = {
    api: ran("succeeded"),
    ui: ran("succeeded"),
    both: found([
      {
        severity: "high",
        message: "api is wrong",
        evidence: "api/x.ts:1",
        requiredChange: "fix x",
        taskId: "api",
      },
      { severity: "low", message: "ui nit", taskId: "ui" },
      { severity: "medium", message: "both lack docs" },
    ]),
    other: found([{ severity: "high", message: "ui only" }]),
  };
  const about = reviewFindings(graph, { tasks: records }, "api");
  assert.deepEqual(about.map((f) => [f.reviewer, f.message]), [["both", "api is wrong"], [
    "both",
    "both lack docs",
  ]]);
  const told = repairInstructions({
    state: "queued",
    repairs: [{ attempt: 2, at: "t", text: "fix it", previous: "succeeded", findings: about }],
  });
  assert.equal(
    told[0],
    "Repair (attempt 2): your attempt 1 ended succeeded. The parent asks: fix it\n" +
      "  The review of attempt 1 found:\n" +
      '  - [high] from reviewer "both": api is wrong Evidence: api/x.ts:1 Required change: fix x\n' +
      '  - [medium] from reviewer "both": both lack docs',
  );
});
