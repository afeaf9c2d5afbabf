import assert from "node:assert/strict";
import { isSpotError } from "../../errors.ts";
import { JobTask } from "../../schemas/job/task.ts";
import { afterOrder, requireApprovals } from "./integrate.ts";
import type { JobState } from "../store.ts";

const FP = "ab".repeat(32);
const t = (id: string, role: string, extra: Record<string, unknown> = {}) =>
  JobTask.parse({ id, role, task: "t", acceptance: ["a"], ...extra });
const b = (id: string, after: string[] = []) =>
  t(id, "builder", { ownership: [id], noChecksReason: "n", after });

function state(verdict: string, fingerprint = FP): JobState {
  const review = { taskId: "api", fingerprint, verdict };
  return {
    schemaVersion: 1,
    jobId: "j",
    status: "succeeded",
    createdAt: "",
    updatedAt: "",
    tasks: {
      api: { state: "succeeded", fingerprint: FP },
      review: { state: "succeeded", result: { summary: "s", review } as never },
    },
  };
}

Deno.test("afterOrder() puts every task after what it waits for, in the job's order otherwise", () => {
  assert.deepEqual(afterOrder([b("ui", ["api"]), b("api"), b("db")]).map((x) => x.id), ["api", "ui", "db"]);
});

Deno.test("requireApprovals() needs an approving verdict echoing the builder's current fingerprint", () => {
  const tasks = [b("api"), t("review", "reviewer", { after: ["api"] })];
  assert.deepEqual(requireApprovals(tasks, state("approve"), [tasks[0]]), ["review"]);
  assert.throws(
    () => requireApprovals(tasks, state("approve", "cd".repeat(32)), [tasks[0]]),
    (e) => isSpotError(e, "REVIEW_STALE"),
  );
  assert.throws(
    () => requireApprovals(tasks, state("changes_requested"), [tasks[0]]),
    (e) => isSpotError(e, "REVIEW_GATE") && /requested changes/.test(e.message),
  );
  assert.throws(
    () => requireApprovals([tasks[0]], state("approve"), [tasks[0]]),
    (e) => isSpotError(e, "REVIEW_GATE") && /no reviewer task approved it/.test(e.message),
  );
});
