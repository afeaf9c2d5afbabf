import assert from "node:assert/strict";
import { JobTask } from "../schemas/job/task.ts";
import { readResult, reviewTargets, unboundVerdict } from "./result.ts";

const FP = "ab".repeat(32);
const t = (id: string, role: string, extra: Record<string, unknown> = {}) =>
  JobTask.parse({ id, role, task: "t", acceptance: ["a"], ...extra });
const TASKS = [
  t("scout", "scout"),
  t("api", "builder", { ownership: ["api"], noChecksReason: "n", after: ["scout"] }),
  t("ui", "builder", { ownership: ["ui"], noChecksReason: "n", after: ["scout"] }),
  t("review", "reviewer", { after: ["api", "ui"] }),
];
const [scout, api, , review] = TASKS;
const read = (task: JobTask, value: unknown) =>
  readResult(
    typeof value === "string" ? value : "Done.\n```json\n" + JSON.stringify(value) + "\n```",
    TASKS,
    task,
  );
const problem = (task: JobTask, value: unknown) => {
  const r = read(task, value);
  return r.ok ? null : r.problem;
};

Deno.test("readResult() takes the JSON object at the end of the worker's text", () => {
  const r = read(api, { status: "succeeded", summary: "x is 2", changedFiles: ["api/x.ts"] });
  assert.ok(r.ok);
  assert.deepEqual([r.result.summary, r.result.changedFiles, r.result.blockers], [
    "x is 2",
    ["api/x.ts"],
    [],
  ]);
});

Deno.test("readResult() refuses text without a result, unknown keys and bad fields, with where", () => {
  assert.equal(problem(api, "approve"), "the final text holds no JSON object");
  assert.match(problem(api, { status: "succeeded", summary: "s", extra: 1 })!, /Unrecognized key.*extra/);
  assert.match(problem(api, { status: "done", summary: "s" })!, /^status: /);
});

Deno.test("readResult() holds each role to its rules", () => {
  assert.equal(problem(scout, { status: "succeeded", summary: "s" }), "a scout must give a brief");
  assert.equal(problem(scout, { status: "succeeded", summary: "s", brief: "b" }), null);
  assert.match(
    problem(scout, { status: "succeeded", summary: "s", brief: "b", changedFiles: ["a"] })!,
    /empty/,
  );
  assert.match(problem(api, { status: "succeeded", summary: "s", blockers: ["no"] })!, /no blockers/);
  const verdict = (taskId: string, v = "approve") => ({ taskId, fingerprint: FP, verdict: v });
  assert.equal(
    problem(review, { status: "succeeded", summary: "s", review: verdict("api") }),
    "review must give a verdict on ui",
  );
  assert.equal(
    problem(review, { status: "succeeded", summary: "s", review: [verdict("api"), verdict("ui")] }),
    null,
  );
  assert.match(
    problem(review, {
      status: "succeeded",
      summary: "s",
      review: [verdict("api"), verdict("ui")],
      findings: [{ severity: "high", message: "m" }],
    })!,
    /cannot approve "api" with a high finding about it/,
  );
  // A finding about one builder holds back that builder's approval only.
  const aboutUi = [{ severity: "high", message: "m", taskId: "ui", requiredChange: "c" }];
  assert.equal(
    problem(review, {
      status: "succeeded",
      summary: "s",
      review: [verdict("api"), verdict("ui", "changes_requested")],
      findings: aboutUi,
    }),
    null,
  );
  assert.match(
    problem(review, {
      status: "succeeded",
      summary: "s",
      review: [verdict("api"), verdict("ui")],
      findings: aboutUi,
    })!,
    /cannot approve "ui" with a high finding/,
  );
  assert.deepEqual(reviewTargets(TASKS, review), ["api", "ui"]);
  assert.deepEqual(reviewTargets(TASKS, t("r", "reviewer", { after: ["api"], reviewOf: "api" })), ["api"]);
  assert.deepEqual(
    reviewTargets(TASKS, t("r", "reviewer", { reviewBase: "main" })),
    ["r"],
    "a range: its own id",
  );
});

Deno.test("readResult() asks a role's fields only of a result that claims success", () => {
  assert.equal(problem(scout, { status: "blocked", summary: "s", blockers: ["no access"] }), null);
  assert.equal(problem(review, { status: "failed", summary: "s" }), null);
});

Deno.test("unboundVerdict() refuses a verdict naming a fingerprint other than the one shown", () => {
  const result = (fingerprint: string) => {
    const r = read(t("r", "reviewer", { reviewBase: "main" }), {
      status: "succeeded",
      summary: "s",
      review: { taskId: "r", fingerprint, verdict: "approve" },
    });
    assert.ok(r.ok);
    return r.result;
  };
  assert.equal(unboundVerdict(result(FP), { r: FP }), null);
  assert.match(
    unboundVerdict(result("cd".repeat(32)), { r: FP })!,
    /verdict on "r" echoes fingerprint cdcdcd/,
  );
  assert.equal(unboundVerdict(result("cd".repeat(32)), {}), null, "nothing bound, nothing refused");
  // A task id that is also a name every object has is not mistaken for one it was shown.
  const named = {
    ...result(FP),
    review: { taskId: "constructor", fingerprint: FP, verdict: "approve" as const },
  };
  assert.equal(unboundVerdict(named, {}), null);
});
