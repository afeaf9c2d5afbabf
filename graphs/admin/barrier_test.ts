import assert from "node:assert/strict";
import { isSpotError } from "../../errors.ts";
import type { JobView } from "../verbs.ts";
import { barrierOutcome, namedTasks } from "./barrier.ts";

const view = (states: Record<string, string>): JobView => ({
  jobId: "job-1",
  status: "running",
  coordinatorAlive: true,
  jobDir: "/x",
  tasks: Object.entries(states).map(([id, state]) => ({ id, role: "scout", state })),
});

Deno.test("barrierOutcome() is open until every named task is terminal", () => {
  const v = view({ a: "succeeded", b: "running", c: "failed" });
  assert.equal(barrierOutcome(namedTasks("job-1", v, ["a", "b"])), "open");
  assert.equal(barrierOutcome(namedTasks("job-1", v, ["a"])), "passed");
  const bad = barrierOutcome(namedTasks("job-1", v, ["a", "c"]));
  assert.deepEqual(Array.isArray(bad) && bad.map((t) => t.id), ["c"]);
});

Deno.test("namedTasks() keeps the order given, once each, and refuses an unknown id with the known ones", () => {
  const v = view({ a: "queued", b: "queued" });
  assert.deepEqual(namedTasks("job-1", v, ["b", "a", "b"]).map((t) => t.id), ["b", "a"]);
  assert.throws(() => namedTasks("job-1", v, ["a", "zz"]), (e) => {
    assert.ok(isSpotError(e, "JOB_INVALID"));
    assert.match(e.message, /"zz": job job-1 has no such task \(its tasks: a, b\)/);
    assert.deepEqual(e.details.known, ["a", "b"]);
    return true;
  });
});
