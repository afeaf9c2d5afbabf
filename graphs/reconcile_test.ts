import assert from "node:assert/strict";
import { resumeOf } from "./reconcile.ts";

Deno.test("resumeOf(): only a worker that never started is started; an ended turn is judged; a cut one is not retried", () => {
  assert.deepEqual(resumeOf(null), { mode: "launch" });
  assert.deepEqual(resumeOf({ status: "prepared", worktreeReady: true }), { mode: "run" });
  assert.deepEqual(resumeOf({ status: "verifying", worktreeReady: true }), { mode: "judge" });
  const cut = resumeOf({ status: "running", worktreeReady: true });
  assert.equal(cut.mode, "uncertain");
  assert.match(
    (cut as { reason: string }).reason,
    /^uncertain: its worker was running .*not launched again$/,
  );
  assert.equal(resumeOf({ status: "prepared", worktreeReady: false }).mode, "uncertain");
  assert.deepEqual(resumeOf({ status: "reviewing", worktreeReady: true }), { mode: "judge" });
  assert.equal(resumeOf({ status: "failed", worktreeReady: true }).mode, "uncertain");
});

Deno.test("resumeOf(): a turn out on the fleet is followed again; one running here is still uncertain", () => {
  const fleet = { role: "origin" as const, queue: "nats://q:4222", taskId: "t1" };
  assert.deepEqual(resumeOf({ status: "running", worktreeReady: true, fleet }), { mode: "run" });
  const here = { ...fleet, role: "executor" as const };
  assert.equal(resumeOf({ status: "running", worktreeReady: true, fleet: here }).mode, "uncertain");
});
