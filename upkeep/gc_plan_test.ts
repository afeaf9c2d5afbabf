import assert from "node:assert/strict";
import { isSpotError } from "../errors.ts";
import { decideGc, type GcFacts, parseAge } from "./gc_plan.ts";

const NOW = Date.parse("2026-12-10T00:00:00.000Z");
const WEEK = { now: NOW, olderThanMs: parseAge("7d"), olderThan: "7d" };
const facts = (f: Partial<GcFacts> = {}): GcFacts => ({
  runId: "r1",
  status: "integrated",
  updatedAt: "2026-12-01T00:00:00.000Z",
  cleanedAt: null,
  locked: false,
  jobCoordinatorAlive: false,
  ...f,
});
const reason = (f: Partial<GcFacts>) => {
  const d = decideGc(facts(f), WEEK);
  return d.kind === "retain" ? d.reason : d.kind;
};

Deno.test("parseAge() reads minutes, hours and days, a bare number as days, and refuses the rest", () => {
  assert.deepEqual(["30m", "12h", "7d", "3", "0"].map(parseAge), [
    1_800_000,
    43_200_000,
    604_800_000,
    259_200_000,
    0,
  ]);
  for (const bad of ["7x", "-1", "1.5d", "", "99999d"]) {
    assert.throws(() => parseAge(bad), (e) => isSpotError(e, "CLI_USAGE"), bad);
  }
});

Deno.test("decideGc() collects an ended run past the window, whatever way it ended", () => {
  for (const status of ["integrated", "succeeded", "failed", "blocked", "discarded"] as const) {
    assert.equal(reason({ status }), "collect", status);
  }
});

Deno.test("decideGc() keeps, with the reason, what must stay", () => {
  assert.equal(reason({ cleanedAt: "2026-12-02T00:00:00.000Z" }), "clean");
  assert.match(reason({ locked: true }), /RUN_LOCKED/);
  assert.equal(reason({ status: "reviewing" }), "it is reviewing, not ended");
  assert.match(reason({ status: "reviewing", awaitingJob: "job-1" }), /waits for job job-1/);
  assert.match(
    reason({ owner: { kind: "job", jobId: "job-1", task: "a" }, jobCoordinatorAlive: true }),
    /job-1/,
  );
  assert.match(reason({ updatedAt: "2026-12-09T00:00:00.000Z" }), /less than 7d ago/);
  assert.match(reason({ origin: "pi-worker" }), /original pi-worker/);
  const d = decideGc(facts({ status: "prepared" }), WEEK);
  assert.deepEqual(d, {
    kind: "retain",
    reason: "it is prepared, not ended",
    nextCommand: "spot discard --id r1",
  });
});

Deno.test("decideGc() judges a cleaned run whose branch was kept like any other run", () => {
  const cleaned = { status: "blocked" as const, cleanedAt: "2026-12-01T00:00:00.000Z", branchLeft: true };
  assert.equal(reason(cleaned), "collect");
  assert.match(reason({ ...cleaned, updatedAt: "2026-12-09T00:00:00.000Z" }), /less than 7d ago/);
  assert.match(reason({ ...cleaned, locked: true }), /RUN_LOCKED/);
  assert.equal(reason({ ...cleaned, branchLeft: false }), "clean");
});
