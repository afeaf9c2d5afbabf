import assert from "node:assert/strict";
import { timeline } from "./graph_timeline.ts";

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
const task = (ms: number, state: string) => ({ type: "task", state, at: at(ms) });

Deno.test("timeline: the first start, the last end and the longest end-to-next-start gap", () => {
  const t = timeline([
    { type: "job", state: "running", at: at(0) },
    task(10, "running"),
    task(10, "running"),
    task(900, "succeeded"),
    task(905, "running"),
    task(1000, "succeeded"),
    task(1500, "running"),
    task(2000, "succeeded"),
    task(2100, "succeeded"),
    { type: "job", state: "succeeded", at: at(2200) },
  ]);
  assert.equal(t.firstStart, Date.UTC(2026, 0, 1) + 10);
  assert.equal(t.lastEnd, Date.UTC(2026, 0, 1) + 2100);
  assert.equal(t.handoff, 500);
});

Deno.test("timeline: tasks that all started at once have no hand-off; no task is an error", () => {
  assert.equal(
    timeline([task(0, "running"), task(0, "running"), task(5, "failed"), task(6, "blocked")]).handoff,
    0,
  );
  assert.throws(() => timeline([{ type: "job", state: "created", at: at(0) }]), /no task that started/);
});
