import assert from "node:assert/strict";
import { TaskContract, type TaskContractInput } from "./task_contract.ts";

function minimal(overrides: Record<string, unknown> = {}): TaskContractInput {
  return {
    schemaVersion: 1,
    goal: "Add a --json flag to the list command",
    allowedPaths: ["src/**"],
    acceptanceCriteria: ["spot list --json prints JSON"],
    verification: [{ argv: ["deno", "test"], timeoutSeconds: 60 }],
    risk: "low",
    ...overrides,
  } as TaskContractInput;
}

function verification(overrides: Record<string, unknown>): Record<string, unknown> {
  return { verification: [{ argv: ["deno", "test"], timeoutSeconds: 60, ...overrides }] };
}

/** Asserts the contract is refused, with an issue at `path`. */
function refused(input: unknown, path: (string | number)[]): void {
  const result = TaskContract.safeParse(input);
  assert.equal(result.success, false, `accepted: ${JSON.stringify(input)}`);
  const paths = result.error!.issues.map((i) => JSON.stringify(i.path));
  assert.ok(
    paths.includes(JSON.stringify(path)),
    `no issue at ${JSON.stringify(path)}, got ${paths.join(" ")}`,
  );
}

function accepted(input: unknown): TaskContract {
  const result = TaskContract.safeParse(input);
  assert.ok(result.success, JSON.stringify(result.error?.issues));
  return result.data;
}

Deno.test("TaskContract parses a minimal contract and fills the defaults", () => {
  const c = accepted(minimal());
  assert.deepEqual(c.forbiddenPaths, []);
  assert.deepEqual(c.lockedPaths, []);
  assert.deepEqual(c.constraints, []);
  assert.deepEqual(c.requiredCapabilities, ["text", "code"]);
  assert.equal(c.runId, undefined);
  assert.equal(c.difficulty, undefined);
});

Deno.test("TaskContract refuses an unknown top-level key", () => {
  const result = TaskContract.safeParse(minimal({ shellCommand: "make" }));
  assert.equal(result.success, false);
  assert.equal(result.error!.issues[0].code, "unrecognized_keys");
});

Deno.test("TaskContract refuses an unknown key inside a verification command", () => {
  refused(minimal(verification({ shell: true })), ["verification", 0]);
});

Deno.test("TaskContract refuses a relative repositoryRoot and accepts an absolute one", () => {
  refused(minimal({ repositoryRoot: "repo" }), ["repositoryRoot"]);
  refused(minimal({ repositoryRoot: "./repo" }), ["repositoryRoot"]);
  assert.equal(accepted(minimal({ repositoryRoot: "/home/u/repo" })).repositoryRoot, "/home/u/repo");
});

Deno.test("TaskContract refuses a shell string as argv[0]", () => {
  refused(minimal(verification({ argv: ["npm test && rm -rf /"] })), ["verification", 0, "argv", 0]);
  refused(minimal(verification({ argv: ["npm;rm"] })), ["verification", 0, "argv", 0]);
  refused(minimal(verification({ argv: ["$(evil)"] })), ["verification", 0, "argv", 0]);
  refused(minimal(verification({ argv: ["npm|cat"] })), ["verification", 0, "argv", 0]);
});

Deno.test("TaskContract accepts a program name as argv[0] with shell-looking later items", () => {
  accepted(minimal(verification({ argv: ["npm", "test"] })));
  accepted(minimal(verification({ argv: ["/usr/bin/make", "check"] })));
  accepted(minimal(verification({ argv: ["node", "-e", "a && b"] })));
});

Deno.test("TaskContract refuses an empty argv", () => {
  refused(minimal(verification({ argv: [] })), ["verification", 0, "argv"]);
});

Deno.test("TaskContract refuses .. segments in allowedPaths and lockedPaths", () => {
  for (const key of ["allowedPaths", "lockedPaths", "forbiddenPaths"]) {
    refused(minimal({ [key]: ["../outside/**"] }), [key, 0]);
    refused(minimal({ [key]: ["src/../../etc"] }), [key, 0]);
    refused(minimal({ [key]: ["src/.."] }), [key, 0]);
  }
});

Deno.test("TaskContract accepts names that merely contain two dots", () => {
  accepted(minimal({ allowedPaths: ["src/..hidden/**", "a..b.ts"], lockedPaths: ["v1..2/x"] }));
});

Deno.test("TaskContract refuses absolute and drive-letter paths in allowedPaths and lockedPaths", () => {
  for (const key of ["allowedPaths", "lockedPaths"]) {
    refused(minimal({ [key]: ["/etc/passwd"] }), [key, 0]);
    refused(minimal({ [key]: ["C:/Windows"] }), [key, 0]);
    refused(minimal({ [key]: ["src\\win.ts"] }), [key, 0]);
  }
});

Deno.test("TaskContract refuses duplicate allowedPaths", () => {
  refused(minimal({ allowedPaths: ["src/**", "docs/**", "src/**"] }), ["allowedPaths"]);
  accepted(minimal({ allowedPaths: ["src/**", "docs/**"] }));
});

Deno.test("TaskContract refuses an empty allowedPaths list", () => {
  refused(minimal({ allowedPaths: [] }), ["allowedPaths"]);
});

Deno.test("TaskContract refuses timeoutSeconds 0 and 3601 but accepts 1 and 3600", () => {
  refused(minimal(verification({ timeoutSeconds: 0 })), ["verification", 0, "timeoutSeconds"]);
  refused(minimal(verification({ timeoutSeconds: 3601 })), ["verification", 0, "timeoutSeconds"]);
  refused(minimal(verification({ timeoutSeconds: 1.5 })), ["verification", 0, "timeoutSeconds"]);
  accepted(minimal(verification({ timeoutSeconds: 1 })));
  accepted(minimal(verification({ timeoutSeconds: 3600 })));
});

Deno.test("TaskContract refuses env names that are not upper-case identifiers", () => {
  refused(minimal(verification({ env: { "lower": "x" } })), ["verification", 0, "env", "lower"]);
  accepted(minimal(verification({ env: { NODE_ENV: "test" } })));
});

Deno.test("TaskContract refuses bad runIds: ../x, ab, x.lock, a..b", () => {
  for (const runId of ["../x", "ab", "x.lock", "a..b", "-abc", "a/bc", "a".repeat(81)]) {
    refused(minimal({ runId }), ["runId"]);
  }
});

Deno.test("TaskContract accepts runIds that are near misses of the bad ones", () => {
  for (const runId of ["abc", "x.locked", "a.b.c", "run_2024-01-01", "a".repeat(80)]) {
    assert.equal(accepted(minimal({ runId })).runId, runId);
  }
});

Deno.test("TaskContract refuses a risk outside low, medium, high", () => {
  refused(minimal({ risk: "extreme" }), ["risk"]);
  refused(minimal({ risk: "LOW" }), ["risk"]);
  for (const risk of ["low", "medium", "high"]) accepted(minimal({ risk }));
});

Deno.test("TaskContract refuses a baseRevision that is not a full commit id", () => {
  refused(minimal({ baseRevision: "abc123" }), ["baseRevision"]);
  refused(minimal({ baseRevision: "A".repeat(40) }), ["baseRevision"]);
  accepted(minimal({ baseRevision: "a".repeat(40) }));
});

Deno.test("TaskContract accepts difficulty and lockedPaths", () => {
  const c = accepted(minimal({ difficulty: "high", lockedPaths: ["src/core/**", "deno.lock"] }));
  assert.equal(c.difficulty, "high");
  assert.deepEqual(c.lockedPaths, ["src/core/**", "deno.lock"]);
  refused(minimal({ difficulty: "trivial" }), ["difficulty"]);
});

Deno.test("TaskContract refuses a goal shorter than 10 characters", () => {
  refused(minimal({ goal: "fix it" }), ["goal"]);
});

Deno.test("TaskContract refuses schemaVersion other than 1", () => {
  refused(minimal({ schemaVersion: 2 }), ["schemaVersion"]);
});

Deno.test("TaskContract refuses an unknown capability and keeps given ones", () => {
  refused(minimal({ requiredCapabilities: ["telepathy"] }), ["requiredCapabilities", 0]);
  refused(minimal({ requiredCapabilities: [] }), ["requiredCapabilities"]);
  assert.deepEqual(accepted(minimal({ requiredCapabilities: ["vision-input"] })).requiredCapabilities, [
    "vision-input",
  ]);
});
