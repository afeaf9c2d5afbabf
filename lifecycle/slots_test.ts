import assert from "node:assert/strict";
import { Status } from "../schemas/run_state.ts";
import type { RunState } from "../schemas/run_state.ts";
import { describeHolder, holdsSlot, limitMessage, onlyWhileWorked } from "./slots.ts";

const run = (status: Status, extra: Partial<RunState> = {}) =>
  ({ runId: "r1", status, updatedAt: "2026-12-01T10:00:00.000Z", worktreeReady: true, ...extra }) as RunState;

Deno.test("holdsSlot(): only a run whose worker's part is not done holds a slot", () => {
  const holding = Status.options.filter((s) => holdsSlot(run(s)));
  assert.deepEqual(holding, ["prepared", "running", "verifying", "selfReviewing", "revising"]);
  assert.equal(holdsSlot(run("verifying", { awaitingJob: "job-1" })), false);
  assert.equal(holdsSlot(run("running", { origin: "pi-worker" })), false);
  // Out on the fleet, the executor's admission counts the turn; back here for judging, it holds one again.
  const fleet = { role: "origin" as const, queue: "nats://q:4222", taskId: "t1" };
  assert.equal(holdsSlot(run("running", { fleet })), false);
  assert.equal(holdsSlot(run("verifying", { fleet })), true);
  assert.equal(holdsSlot(run("running", { fleet: { ...fleet, role: "executor" } })), true);
});

Deno.test("onlyWhileWorked(): the statuses a run is in only while a process holds it", () => {
  const worked = Status.options.filter((s) => onlyWhileWorked(run(s)));
  assert.deepEqual(worked, ["running", "revising"]);
  assert.equal(onlyWhileWorked(run("prepared", { worktreeReady: false })), true);
});

Deno.test("describeHolder() names the command that frees each kind of holder", () => {
  assert.deepEqual(describeHolder(run("verifying"), false, null), {
    runId: "r1",
    status: "verifying",
    since: "2026-12-01T10:00:00.000Z",
    working: false,
    next: "spot verify --id r1",
    free: "spot discard --id r1",
  });
  assert.equal(
    describeHolder(run("running"), true, 42).free,
    "wait for it, or stop the process working on it (pid 42)",
  );
  assert.equal(
    describeHolder(run("running", { owner: { kind: "agent", name: "a" } }), true, 42).free,
    "spot agent discard a",
  );
  const job = describeHolder(run("prepared", { owner: { kind: "job", jobId: "j", task: "t" } }), false, null);
  assert.match(job.free, /^spot job cancel j /);
  assert.match(
    limitMessage("r2", 1, [describeHolder(run("prepared"), false, null)]),
    /^Cannot admit run "r2": 1 of 1 run slots are busy: "r1" \(prepared since .*: spot run --id r1 moves it on; spot discard --id r1 frees it\)$/,
  );
});
