import assert from "node:assert/strict";
import { isSpotError } from "../errors.ts";
import { ZERO_USAGE } from "../schemas/events.ts";
import { type RunState, Status } from "../schemas/run_state.ts";
import {
  canRecover,
  canTransition,
  finishTurnTransition,
  followUpTransition,
  recoverTransition,
  requireStatus,
  transition,
} from "./state_table.ts";

const AT = "2025-03-04T05:06:07.000Z";
const LATER = "2025-03-04T05:10:00.000Z";
const ALL: readonly Status[] = Status.options;

/** The lifecycle as the spec states it; the table under test must match it exactly. */
const EXPECTED_FORWARD: Record<Status, Status[]> = {
  prepared: ["running", "failed", "blocked", "discarded"],
  running: ["verifying", "failed", "blocked", "discarded"],
  verifying: ["selfReviewing", "reviewing", "failed", "blocked", "discarded"],
  selfReviewing: ["reviewing", "failed", "blocked", "discarded"],
  reviewing: ["revising", "approved", "failed", "blocked", "discarded"],
  // Back to review when the revision changed nothing (REVISION_NO_CHANGE).
  revising: ["verifying", "reviewing", "failed", "blocked", "discarded"],
  approved: ["committed", "failed", "blocked", "discarded"],
  committed: ["integrated", "blocked", "discarded"],
  integrated: [],
  succeeded: [],
  failed: ["discarded"],
  blocked: ["discarded"],
  discarded: [],
};

function makeState(status: Status, overrides: Partial<RunState> = {}): RunState {
  return {
    schemaVersion: 1,
    runId: "run-fixture-1",
    status,
    createdAt: AT,
    updatedAt: AT,
    caller: "cli",
    sourceRoot: "/repo",
    sourceHead: "a".repeat(40),
    sourceBranch: "main",
    sourceFingerprint: { head: "a".repeat(40), branch: "main", dirty: false, digest: "d".repeat(64) },
    sourceDirty: false,
    worktreePath: "/cache/worktrees/run-fixture-1",
    workerBranch: "spot/run-fixture-1",
    baseRevision: "a".repeat(40),
    workerBaseRevision: "a".repeat(40),
    snapshotCommit: null,
    worktreeReady: true,
    profile: "default",
    adapter: "replay",
    provider: "test",
    model: "test-model",
    sandbox: "deno-permissions",
    identity: { name: "spot", email: "spot@example.invalid" },
    revisionRound: 0,
    fallbackUsed: false,
    workerUsage: { ...ZERO_USAGE },
    workerCostUsd: 0,
    workerDurationMs: 0,
    workerAttempts: 0,
    transitions: [{ from: null, to: "prepared", at: AT, reason: "created" }],
    failure: null,
    interruption: null,
    lastVerificationPassed: null,
    diffSha256: null,
    diffBytes: null,
    selfReviewSkipped: null,
    selfReviewSkipReason: null,
    implementationCommit: null,
    integratedCommit: null,
    blockedReason: null,
    recovery: null,
    lastReportAt: null,
    cleanedAt: null,
    ...overrides,
  };
}

function troubled(status: Status): RunState {
  return makeState(status, {
    failure: { code: "WORKER_FAILED", message: "worker crashed" },
    interruption: { at: AT, signal: "SIGINT", phase: "running" },
  });
}

function assertStateInvalid(fn: () => unknown, label: string): void {
  assert.throws(fn, (e: unknown) => isSpotError(e, "STATE_INVALID"), label);
}

Deno.test("transition() accepts every forward edge of the lifecycle and records it", () => {
  let edges = 0;
  for (const from of ALL) {
    for (const to of EXPECTED_FORWARD[from]) {
      const before = makeState(from);
      const after = transition(before, to, `go ${to}`, LATER);
      assert.equal(after.status, to);
      assert.equal(after.updatedAt, LATER);
      assert.equal(after.transitions.length, before.transitions.length + 1);
      assert.deepEqual(after.transitions.at(-1), { from, to, reason: `go ${to}`, at: LATER });
      assert.deepEqual(after.transitions.slice(0, -1), before.transitions);
      edges++;
    }
  }
  assert.equal(edges, 36);
});

Deno.test("transition() refuses every move that is not a forward edge, with STATE_INVALID", () => {
  for (const from of ALL) {
    for (const to of ALL) {
      if (EXPECTED_FORWARD[from].includes(to)) continue;
      assert.equal(canTransition(from, to), false, `${from} -> ${to}`);
      assertStateInvalid(() => transition(makeState(from), to, "x", LATER), `${from} -> ${to}`);
    }
  }
});

Deno.test("transition() refuses approve before verify (prepared -> approved)", () => {
  assertStateInvalid(
    () => transition(makeState("prepared"), "approved", "skip", LATER),
    "prepared -> approved",
  );
  assertStateInvalid(
    () => transition(makeState("running"), "approved", "skip", LATER),
    "running -> approved",
  );
  assert.equal(transition(makeState("reviewing"), "approved", "ok", LATER).status, "approved");
});

Deno.test("transition() refuses any move out of integrated, succeeded or discarded", () => {
  const ends: Status[] = ["integrated", "succeeded", "discarded"];
  for (const f of ends) {
    for (const t of ALL) assertStateInvalid(() => transition(makeState(f), t, "x", LATER), f);
  }
  // A discarded run keeps the failure it was dropped with.
  assert.notEqual(transition(troubled("failed"), "discarded", "dropped", LATER).failure, null);
});

Deno.test("transition() refuses failed -> running", () => {
  assertStateInvalid(() => transition(troubled("failed"), "running", "retry", LATER), "failed -> running");
});

Deno.test("transition() names the run and both statuses in its error", () => {
  try {
    transition(makeState("prepared"), "approved", "x", LATER);
    assert.fail("expected a throw");
  } catch (e) {
    assert.ok(isSpotError(e, "STATE_INVALID"));
    assert.match(e.message, /run-fixture-1/);
    assert.match(e.message, /prepared/);
    assert.match(e.message, /approved/);
    assert.deepEqual(e.details, {
      runId: "run-fixture-1",
      from: "prepared",
      to: "approved",
      nextCommand: "spot run --id run-fixture-1",
    });
  }
});

Deno.test("transition() to a non-failed state clears failure and interruption", () => {
  const after = transition(troubled("running"), "verifying", "worker done", LATER);
  assert.equal(after.failure, null);
  assert.equal(after.interruption, null);
});

Deno.test("transition() to failed or blocked keeps failure and interruption", () => {
  for (const to of ["failed", "blocked"] as const) {
    const before = troubled("running");
    const after = transition(before, to, "broke", LATER);
    assert.deepEqual(after.failure, before.failure, to);
    assert.deepEqual(after.interruption, before.interruption, to);
  }
});

Deno.test("transition() leaves every other field of the state as it was", () => {
  const before = makeState("verifying", { diffSha256: "f".repeat(64), revisionRound: 2 });
  const after = transition(before, "reviewing", "checked", LATER);
  const strip = ({ status: _s, updatedAt: _u, transitions: _t, ...rest }: RunState) => rest;
  assert.deepEqual(strip(after), strip(before));
});

Deno.test("transition() does not mutate its input state", () => {
  const before = troubled("running");
  const snapshot = structuredClone(before);
  const transitionsRef = before.transitions;
  const after = transition(before, "verifying", "done", LATER);
  assert.deepEqual(before, snapshot);
  assert.notEqual(after, before);
  assert.equal(before.transitions, transitionsRef);
  assert.notEqual(after.transitions, before.transitions);
  assert.equal(before.transitions.length, 1);
});

Deno.test("transition() works on a deeply frozen input", () => {
  const before = Object.freeze({
    ...makeState("prepared"),
    transitions: Object.freeze([...makeState("prepared").transitions]),
  });
  const after = transition(before as RunState, "running", "go", LATER);
  assert.equal(after.status, "running");
});

Deno.test("recoverTransition() allows running -> prepared and running -> verifying", () => {
  for (const to of ["prepared", "verifying"] as const) {
    const after = recoverTransition(troubled("running"), to, "worker was killed", LATER);
    assert.equal(after.status, to);
    assert.deepEqual(after.transitions.at(-1), {
      from: "running",
      to,
      reason: "recover: worker was killed",
      at: LATER,
    });
    assert.equal(after.failure, null);
    assert.equal(after.interruption, null);
  }
});

Deno.test("recoverTransition() allows revising -> verifying and revising -> reviewing", () => {
  assert.equal(recoverTransition(makeState("revising"), "verifying", "r", LATER).status, "verifying");
  assert.equal(recoverTransition(makeState("revising"), "reviewing", "r", LATER).status, "reviewing");
});

Deno.test("recoverTransition() refuses reviewing -> prepared with STATE_INVALID", () => {
  assert.equal(canRecover("reviewing", "prepared"), false);
  assertStateInvalid(
    () => recoverTransition(makeState("reviewing"), "prepared", "r", LATER),
    "reviewing -> prepared",
  );
});

Deno.test("recoverTransition() refuses to leave a terminal integrated or blocked run", () => {
  for (const from of ["integrated", "blocked"] as const) {
    for (const to of ALL) {
      assertStateInvalid(() => recoverTransition(makeState(from), to, "r", LATER), `${from} -> ${to}`);
    }
  }
});

Deno.test("recoverTransition() brings a failed run back to prepared and clears its failure", () => {
  const after = recoverTransition(troubled("failed"), "prepared", "retry", LATER);
  assert.equal(after.status, "prepared");
  assert.equal(after.failure, null);
  assert.equal(after.interruption, null);
});

Deno.test("transition() does not accept the recovery-only moves", () => {
  assertStateInvalid(() => transition(makeState("running"), "prepared", "x", LATER), "running -> prepared");
  assertStateInvalid(
    () => transition(makeState("verifying"), "verifying", "x", LATER),
    "verifying -> verifying",
  );
  assertStateInvalid(() => transition(makeState("failed"), "prepared", "x", LATER), "failed -> prepared");
});

Deno.test("recoverTransition() does not mutate its input state", () => {
  const before = troubled("running");
  const snapshot = structuredClone(before);
  recoverTransition(before, "prepared", "r", LATER);
  assert.deepEqual(before, snapshot);
});

Deno.test("requireStatus() passes when the run is in an allowed status", () => {
  requireStatus(makeState("reviewing"), ["verifying", "reviewing"], "approve");
});

Deno.test("requireStatus() throws STATE_INVALID naming the command, the current status and the allowed ones", () => {
  try {
    requireStatus(makeState("prepared"), ["verifying", "reviewing"], "approve");
    assert.fail("expected a throw");
  } catch (e) {
    assert.ok(isSpotError(e, "STATE_INVALID"), String(e));
    assert.match(e.message, /approve/);
    assert.match(e.message, /run-fixture-1/);
    assert.match(e.message, /it is prepared/);
    assert.match(e.message, /verifying or reviewing/);
    assert.deepEqual(e.details.allowed, ["verifying", "reviewing"]);
  }
});

Deno.test("followUpTransition() takes only a verifying or succeeded run back to running", () => {
  assert.equal(followUpTransition(makeState("verifying"), "follow-up", LATER).status, "running");
  assert.equal(followUpTransition(makeState("succeeded"), "follow-up", LATER).status, "running");
  for (const status of ALL.filter((s) => s !== "verifying" && s !== "succeeded")) {
    assertStateInvalid(() => followUpTransition(makeState(status), "follow-up", LATER), status);
  }
});

Deno.test("finishTurnTransition() ends only a verifying run, as succeeded, never integrated", () => {
  assert.equal(finishTurnTransition(makeState("verifying"), "scout", LATER).status, "succeeded");
  for (const status of ALL.filter((s) => s !== "verifying")) {
    assertStateInvalid(() => finishTurnTransition(makeState(status), "scout", LATER), status);
  }
});
