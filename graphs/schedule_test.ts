import assert from "node:assert/strict";
import { schedule, type TaskStatus } from "./schedule.ts";

const t = (id: string, ...after: string[]) => ({ id, after });
const s = (state: TaskStatus["state"], reason?: string): TaskStatus => ({
  state,
  ...(reason ? { reason } : {}),
});
const wide = { concurrency: 3, freeSlots: 16 };

Deno.test("schedule: ready means every after succeeded, in the job's order, within the limits", () => {
  const tasks = [t("scout"), t("a", "scout"), t("b", "scout"), t("c", "scout"), t("rev", "a", "b")];
  const q = Object.fromEntries(tasks.map((x) => [x.id, s("queued")]));
  assert.deepEqual(schedule(tasks, q, wide).start, ["scout"]);
  const afterScout = { ...q, scout: s("succeeded") };
  assert.deepEqual(schedule(tasks, afterScout, wide).start, ["a", "b", "c"]);
  assert.deepEqual(schedule(tasks, afterScout, { concurrency: 2, freeSlots: 16 }).start, ["a", "b"]);
  // The machine-wide cap holds even when the job has room.
  assert.deepEqual(schedule(tasks, afterScout, { concurrency: 3, freeSlots: 1 }).start, ["a"]);
  // Running tasks take their share of the job's concurrency.
  assert.deepEqual(
    schedule(tasks, { ...afterScout, a: s("running") }, { concurrency: 2, freeSlots: 9 }).start,
    [
      "b",
    ],
  );
  // One of two predecessors succeeded: not ready.
  const one = { ...afterScout, a: s("succeeded"), b: s("running"), c: s("succeeded") };
  assert.deepEqual(schedule(tasks, one, wide).start, []);
  assert.deepEqual(schedule(tasks, { ...one, b: s("succeeded") }, wide).start, ["rev"]);
});

Deno.test("schedule: a failed task blocks its dependents, transitively, with the reason", () => {
  const tasks = [t("a"), t("b", "a"), t("c", "b"), t("d")];
  const plan = schedule(tasks, {
    a: s("failed", "checks failed"),
    b: s("queued"),
    c: s("queued"),
    d: s("running"),
  }, wide);
  assert.deepEqual(plan.block, [
    { id: "b", reason: 'after "a" failed: checks failed' },
    { id: "c", reason: 'after "b" blocked: after "a" failed: checks failed' },
  ]);
  assert.deepEqual(plan.start, []);
  assert.equal(plan.settled, false, "d still runs");
  const done = schedule(tasks, { a: s("failed"), b: s("queued"), c: s("queued"), d: s("succeeded") }, wide);
  assert.deepEqual([done.settled, done.failed], [true, true]);
  const ok = schedule([t("a")], { a: s("succeeded") }, wide);
  assert.deepEqual([ok.settled, ok.failed], [true, false]);
});
