import assert from "node:assert/strict";
import { decide, type RunFacts, unrecorded } from "./cleanup_plan.ts";

const facts = (over: Partial<RunFacts> = {}): RunFacts => ({
  task: "api",
  role: "builder",
  record: { state: "succeeded", runId: "job-1.api", changedFiles: ["api/x.ts"] },
  landed: true,
  run: { status: "integrated", cleanedAt: null, diffSha256: "d1" },
  locked: false,
  now: { paths: ["api/x.ts"], diffSha256: "d1" },
  ...over,
});

const reason = (f: RunFacts) => {
  const d = decide(f);
  return d.kind === "retain" ? d.reason : d.kind;
};

Deno.test("decide() removes an integrated builder's run with its branch", () => {
  assert.deepEqual(decide(facts()), { kind: "remove", endRun: false, branchRemoved: true });
});

Deno.test("decide() keeps the branch of a replaced attempt that was integrated, then rolled back", () => {
  // The earlier attempt's record as the plan sees it (ended by the repair), its run still `integrated`.
  const replaced = facts({ record: { state: "failed", runId: "job-1.api" }, landed: false });
  assert.deepEqual(decide(replaced), { kind: "remove", endRun: false, branchRemoved: false });
});

Deno.test("decide() skips a task with no run and a run already cleaned", () => {
  assert.equal(decide(facts({ record: { state: "queued" } })).kind, "skip");
  assert.equal(decide(facts({ run: { status: "failed", cleanedAt: "t", diffSha256: null } })).kind, "skip");
});

Deno.test("decide() retains a run another process holds, and one it cannot read", () => {
  assert.match(reason(facts({ locked: true })), /^RUN_LOCKED/);
  assert.match(reason(facts({ run: null })), /cannot be read/);
});

Deno.test("decide() retains a succeeded builder until its job is integrated", () => {
  const waiting = facts({
    landed: false,
    run: { status: "reviewing", cleanedAt: null, diffSha256: "d1" },
  });
  assert.match(reason(waiting), /succeeded but is not landed/);
  // The same builder, failed or cancelled, has nothing to land: its run ends failed and goes, branch kept.
  for (const state of ["failed", "cancelled"] as const) {
    const over = decide({ ...waiting, record: { ...waiting.record, state } });
    assert.deepEqual(over, { kind: "remove", endRun: true, branchRemoved: false }, state);
  }
});

Deno.test("decide() retains a builder's integrated run whose landing was rolled back: its branch holds the work", () => {
  // The run ended integrated when the job applied it; `spot job rollback` took it out of the checkout again.
  assert.match(reason(facts({ landed: false })), /succeeded but is not landed/);
});

Deno.test("decide() retains a task that is not over", () => {
  assert.equal(reason(facts({ record: { state: "running", runId: "job-1.api" } })), "its task is running");
});

Deno.test("decide() ends a read-only task's unfinished run as succeeded before removing it", () => {
  const scout = facts({
    role: "scout",
    record: { state: "succeeded", runId: "job-1.scout" },
    landed: false,
    run: { status: "running", cleanedAt: null, diffSha256: null },
    now: { paths: [], diffSha256: "empty" },
  });
  assert.deepEqual(decide(scout), { kind: "remove", endRun: true, branchRemoved: true });
});

Deno.test("decide() retains a worktree changed beyond what spot recorded", () => {
  // A verified run: by the digest of its diff, so an edit to a recorded file counts too.
  assert.match(
    reason(facts({ now: { paths: ["api/x.ts"], diffSha256: "d2" } })),
    /did not record: api\/x\.ts/,
  );
  // Any other run: by path, against the files its task recorded.
  const scout = facts({
    role: "scout",
    record: { state: "failed", runId: "job-1.scout", changedFiles: ["a.md"] },
    run: { status: "failed", cleanedAt: null, diffSha256: null },
  });
  assert.equal(reason({ ...scout, now: { paths: ["a.md"], diffSha256: "x" } }), "remove");
  assert.match(
    reason({ ...scout, now: { paths: ["a.md", "b.md"], diffSha256: "x" } }),
    /did not record: b\.md$/,
  );
  assert.match(reason({ ...scout, unreadable: "git failed" }), /cannot be read: git failed/);
});

Deno.test("unrecorded() has nothing to compare once the worktree is gone", () => {
  assert.equal(unrecorded({ ...facts(), now: null }), null);
});
