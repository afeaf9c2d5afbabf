import assert from "node:assert/strict";
import { gcHold, type JobFacts } from "./gc_plan.ts";

const NOW = Date.parse("2026-01-20T00:00:00.000Z");
const old = "2026-01-01T00:00:00.000Z";
const facts = (over: Partial<JobFacts> = {}): JobFacts => ({
  status: "succeeded",
  updatedAt: old,
  coordinatorAlive: false,
  ...over,
});
const hold = (f: JobFacts, olderThanDays = 7) => gcHold(f, { now: NOW, olderThanDays });

Deno.test("gcHold() lets a settled job untouched for the window go", () => {
  for (const status of ["succeeded", "failed", "cancelled"] as const) {
    assert.equal(hold(facts({ status })), null);
  }
  assert.equal(hold(facts({ journal: { state: "rolled-back", at: "2026-01-19T00:00:00.000Z" } })), null);
});

Deno.test("gcHold() keeps a job with a live coordinator, one not settled, and one changed in the window", () => {
  assert.equal(
    hold(facts({ coordinatorAlive: true, coordinatorPid: 42 })),
    "its coordinator is running (pid 42)",
  );
  assert.equal(hold(facts({ status: "running" })), "it is running, not settled");
  assert.equal(hold(facts({ status: "created" })), "it is created, not settled");
  assert.match(hold(facts({ updatedAt: "2026-01-15T00:00:00.000Z" }))!, /less than 7 days ago/);
  assert.equal(hold(facts({ updatedAt: "2026-01-15T00:00:00.000Z" }), 4), null);
  assert.match(hold(facts({ updatedAt: "yesterday" }))!, /is not a time/);
});

Deno.test("gcHold() keeps an apply-mode integration that can still be rolled back, and one that stopped part way", () => {
  const recent = { state: "applied" as const, at: "2026-01-18T00:00:00.000Z" };
  assert.match(hold(facts({ journal: recent }))!, /can still be rolled back/);
  assert.equal(hold(facts({ journal: recent }), 1), null, "a journal older than the window goes");
  const stopped = { state: "applying" as const, at: old };
  assert.match(hold(facts({ journal: stopped }), 0)!, /stopped part way/);
});
