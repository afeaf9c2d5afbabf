import assert from "node:assert/strict";
import type { Enforcement, SandboxDetails } from "../schemas/sandbox_record.ts";
import { combine, withStepEnforcement } from "./enforcement.ts";

const e = (enforced: string[], notEnforced: string[] = []): Enforcement => ({
  backend: "bwrap",
  enforced,
  notEnforced,
});

const DETAILS: SandboxDetails = {
  choice: "auto",
  source: "config",
  backend: "bwrap",
  optedOut: false,
  bwrap: { path: "/usr/bin/bwrap", version: "0.8.0" },
  enforced: [],
  notEnforced: [],
  decidedAt: "2026-12-01T00:00:00.000Z",
};

Deno.test("combine() keeps only what every policy got, and every gap any of them had", () => {
  assert.equal(combine([]), null);
  const both = combine([e(["a", "b"], ["x"]), e(["b", "c"], ["y"])])!;
  assert.deepEqual(both.enforced, ["b"]);
  assert.deepEqual(both.notEnforced, ["x", "y"]);
});

Deno.test("withStepEnforcement() records each kind of step and what held for all of them", () => {
  const afterWorker = withStepEnforcement(
    DETAILS,
    "worker",
    e(["net:provider-forwarder-only", "pid:namespace"]),
  )!;
  assert.deepEqual(afterWorker.enforced, ["net:provider-forwarder-only", "pid:namespace"]);
  const afterCheck = withStepEnforcement(
    afterWorker,
    "check",
    e(["net:none", "pid:namespace"], ["seccomp"]),
  )!;
  assert.deepEqual(afterCheck.enforced, ["pid:namespace"]);
  assert.deepEqual(afterCheck.notEnforced, ["seccomp"]);
  assert.deepEqual(Object.keys(afterCheck.steps!), ["worker", "check"]);
  assert.equal(withStepEnforcement(DETAILS, "check", null), DETAILS, "nothing ran under a policy");
  assert.equal(withStepEnforcement(undefined, "check", e(["a"])), undefined);
});
