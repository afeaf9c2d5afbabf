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
