import assert from "node:assert/strict";
import { plainContract } from "./contract.ts";
import { TaskContract } from "../task_contract.ts";

const check = { argv: ["node", "-e", "process.exit(0)"], timeoutSeconds: 30 };
const BASES: Record<string, unknown>[] = [
  {
    schemaVersion: 1,
    goal: "Make sum add",
    allowedPaths: ["src/**"],
    acceptanceCriteria: ["sum adds"],
    verification: [check],
    risk: "low",
  },
  {
    schemaVersion: 1,
    runId: "run-a.b_c",
    repositoryRoot: "/repo",
    baseRevision: "b".repeat(40),
    goal: "Refactor the parser ✓ into two files",
    allowedPaths: ["src/parse/*.ts", "docs/parse.md"],
    forbiddenPaths: ["src/secret/**"],
    lockedPaths: ["tests/**"],
    constraints: ["keep the API"],
    acceptanceCriteria: ["tests pass", "no new deps"],
    verification: [check, { argv: ["deno", "test"], timeoutSeconds: 3600 }],
    requiredCapabilities: ["code", "tool-use"],
    risk: "medium",
    difficulty: "high",
    domain: "refactor",
  },
];

const ODD: unknown[] = [
  null,
  "",
  "x",
  "a valid enough goal",
  0,
  1,
  -1,
  1.5,
  3601,
  true,
  [],
  {},
  [""],
  ["x", "x"],
  ["../a"],
  ["/abs"],
  ["a\\b"],
  ["C:x"],
  ["a\u0001"],
  ["ok/**"],
  ["text", "code"],
  ["vision"],
  "low",
  "high",
  "docs",
  "run-x..y",
  "run-x.lock",
  ".run",
  "c".repeat(64),
  "C".repeat(40),
  "/root",
  "s".repeat(4001),
  [{ argv: ["sh -c x"], timeoutSeconds: 1 }],
  [{ argv: ["a;b"], timeoutSeconds: 1 }],
  [{ argv: ["true"], timeoutSeconds: 1, env: { X: "1" } }],
  [{ argv: ["true"], timeoutSeconds: 0 }],
  [{ argv: [], timeoutSeconds: 1 }],
  [{ argv: ["true"], timeoutSeconds: 1, extra: 1 }],
  [check, check],
];

function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function mutate(base: Record<string, unknown>, pick: () => number): unknown {
  const copy: Record<string, unknown> = structuredClone(base);
  const keys = Object.keys(BASES[1]).concat(["extra"]);
  const steps = 1 + Math.floor(pick() * 3);
  for (let s = 0; s < steps; s++) {
    const key = keys[Math.floor(pick() * keys.length)];
    if (pick() < 0.2) delete copy[key];
    else copy[key] = structuredClone(ODD[Math.floor(pick() * ODD.length)]);
  }
  const text = JSON.stringify(copy);
  return JSON.parse(pick() < 0.1 ? text.replace('"extra"', '"__proto__"') : text);
}

Deno.test("plainContract returns what the schema returns for plainly valid contracts, key order included", () => {
  for (const base of BASES) {
    const plain = plainContract(structuredClone(base));
    assert.ok(plain);
    assert.equal(JSON.stringify(plain), JSON.stringify(TaskContract.parse(base)));
  }
});

Deno.test("plainContract accepts nothing the schema refuses, and returns the schema's output", () => {
  const pick = random(30);
  let fast = 0;
  let refused = 0;
  for (let i = 0; i < 8_000; i++) {
    const value = mutate(BASES[i % BASES.length], pick);
    const schema = TaskContract.safeParse(value);
    const plain = plainContract(value);
    if (!schema.success) refused++;
    if (plain === null) continue;
    fast++;
    assert.ok(schema.success, `plainContract accepted what the schema refuses: ${JSON.stringify(value)}`);
    assert.equal(JSON.stringify(plain), JSON.stringify(schema.data));
  }
  assert.ok(refused > 4_000, `only ${refused} refused`);
  assert.ok(fast > 300, `only ${fast} accepted on the fast path`);
});

Deno.test("plainContract agrees with the schema on every single-field change of each contract", () => {
  let fast = 0;
  for (const base of BASES) {
    for (const key of [...Object.keys(BASES[1]), "extra"]) {
      for (const odd of [undefined, ...ODD]) {
        const value = JSON.parse(JSON.stringify({ ...base, [key]: odd }));
        const plain = plainContract(value);
        if (plain === null) continue;
        fast++;
        const schema = TaskContract.safeParse(value);
        assert.ok(schema.success, `plainContract accepted what the schema refuses: ${JSON.stringify(value)}`);
        assert.equal(JSON.stringify(plain), JSON.stringify(schema.data));
      }
    }
  }
  assert.ok(fast > 100, `only ${fast} accepted on the fast path`);
});

Deno.test("plainContract leaves a check with its own env (the config's allowlist decides) to the schema", () => {
  const withEnv = { ...BASES[0], verification: [{ ...check, env: { CI: "1" } }] };
  assert.equal(plainContract(withEnv), null);
  for (const value of [null, [], "x", Object.create(null)]) assert.equal(plainContract(value), null);
});
