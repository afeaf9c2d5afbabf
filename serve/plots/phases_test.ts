import assert from "node:assert/strict";
import { maxConcurrency, runPhases, taskSegments, type TimelineTask } from "./phases.ts";

const at = (s: number) => new Date(Date.UTC(2025, 2, 1, 10, 0, s)).toISOString();

Deno.test("runPhases() sums the time in each status; only the status an active run is in counts until now", () => {
  const list = [
    { to: "prepared", at: at(0) },
    { to: "running", at: at(2) },
    { to: "verifying", at: at(10) },
    { to: "revising", at: at(12) },
    { to: "verifying", at: at(20) },
  ];
  const now = new Date(Date.parse(at(25)));
  assert.deepEqual(runPhases(list, now, "verifying"), [
    { phase: "prepared", ms: 2_000 },
    { phase: "running", ms: 8_000 },
    { phase: "verifying", ms: 7_000 },
    { phase: "revising", ms: 8_000 },
  ]);
  assert.deepEqual(runPhases(list, now, "blocked").find((p) => p.phase === "verifying"), {
    phase: "verifying",
    ms: 2_000,
  });
  assert.deepEqual(runPhases([{ to: "integrated", at: at(0) }, { bad: 1 }], now), []);
  assert.deepEqual(runPhases("not a list", now), []);
});

Deno.test("taskSegments(): a task waits for its last `after`, then its run's statuses become worker, checks and review", () => {
  const tasks: TimelineTask[] = [
    {
      id: "a",
      after: [],
      state: "succeeded",
      startedAt: at(5),
      endedAt: at(30),
      transitions: [
        { to: "prepared", at: at(6) },
        { to: "running", at: at(8) },
        { to: "verifying", at: at(20) },
        { to: "integrated", at: at(28) },
      ],
    },
    { id: "b", after: [], state: "succeeded", startedAt: at(0), endedAt: at(40), transitions: [] },
    {
      id: "c",
      after: ["a", "b"],
      state: "running",
      startedAt: at(45),
      endedAt: null,
      transitions: [
        { to: "running", at: at(45) },
      ],
    },
    { id: "d", after: ["c"], state: "queued", startedAt: null, endedAt: null, transitions: [] },
  ];
  const s = taskSegments(tasks, { jobStart: at(0), now: new Date(Date.parse(at(50))) });
  const kinds = (id: string) => s.get(id)!.map((x) => `${x.kind} ${x.ms}`);
  assert.deepEqual(kinds("a"), ["wait 5000", "setup 3000", "worker 12000", "checks 8000", "run 2000"]);
  assert.deepEqual(kinds("b"), ["run 40000"], "a task with no run statuses is one plain bar");
  assert.deepEqual(kinds("c"), ["wait 5000", "worker 5000"], "waits for b, the later of its two");
  assert.deepEqual(kinds("d"), []);
  assert.equal(maxConcurrency(s), 2);
});
