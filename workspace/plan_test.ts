import assert from "node:assert/strict";
import { type DependencyFacts, type DependencySettings, planDependencies } from "./plan.ts";

const F = (over: Partial<DependencyFacts> = {}): DependencyFacts => ({
  baseLockfiles: {},
  workingLockfiles: {},
  sourceDirs: {},
  yarnBerry: false,
  tools: { npm: true, pnpm: true, yarn: true, bun: false, uv: true, poetry: false, pipenv: false },
  ...over,
});
const AUTO: DependencySettings = { reuse: true, setup: "auto" };

const ROWS: {
  rule: string;
  facts: DependencyFacts;
  settings?: DependencySettings;
  expect: string[];
  command?: string | null;
}[] = [
  {
    rule: "an installed node_modules whose lockfile is the base's is reused",
    facts: F({
      baseLockfiles: { "package-lock.json": "a" },
      workingLockfiles: { "package-lock.json": "a" },
      sourceDirs: { node_modules: { ignored: true } },
    }),
    expect: ["node:reuse"],
    command: null,
  },
  {
    rule: "a lockfile changed since the install means setup from the base's lockfile",
    facts: F({
      baseLockfiles: { "package-lock.json": "a" },
      workingLockfiles: { "package-lock.json": "b" },
      sourceDirs: { node_modules: { ignored: true } },
    }),
    expect: ["node:setup"],
    command: "npm ci --prefer-offline --no-audit --no-fund",
  },
  {
    rule: "a node_modules git does not ignore is never shown as installed",
    facts: F({
      baseLockfiles: { "package-lock.json": "a" },
      workingLockfiles: { "package-lock.json": "a" },
      sourceDirs: { node_modules: { ignored: false } },
    }),
    expect: ["node:setup"],
  },
  {
    rule: "pnpm, yarn classic and yarn berry each get their frozen install",
    facts: F({ baseLockfiles: { "pnpm-lock.yaml": "p" } }),
    expect: ["node:setup"],
    command: "pnpm install --frozen-lockfile --prefer-offline",
  },
  {
    rule: "yarn classic",
    facts: F({ baseLockfiles: { "yarn.lock": "y" } }),
    expect: ["node:setup"],
    command: "yarn install --frozen-lockfile",
  },
  {
    rule: "yarn berry",
    facts: F({ baseLockfiles: { "yarn.lock": "y" }, yarnBerry: true }),
    expect: ["node:setup"],
    command: "yarn install --immutable",
  },
  {
    rule: "conflicting lockfiles give none with the reason",
    facts: F({ baseLockfiles: { "yarn.lock": "y", "package-lock.json": "a" } }),
    expect: ["node:none"],
    command: null,
  },
  {
    rule: "a missing tool gives none",
    facts: F({ baseLockfiles: { "bun.lockb": "b" } }),
    expect: ["node:none"],
    command: null,
  },
  {
    rule: "uv installs the locked environment but never the project itself",
    facts: F({ baseLockfiles: { "uv.lock": "u" } }),
    expect: ["python:setup"],
    command: "uv sync --frozen --no-install-project",
  },
  {
    rule: "a .venv beside an unchanged requirements.txt is reused; nothing installs from it",
    facts: F({
      baseLockfiles: { "requirements.txt": "r" },
      workingLockfiles: { "requirements.txt": "r" },
      sourceDirs: { ".venv": { ignored: true } },
    }),
    expect: ["python:reuse"],
  },
  {
    rule: "an installed dir with no lockfile at the base cannot be matched",
    facts: F({ sourceDirs: { node_modules: { ignored: true } } }),
    expect: ["node:none"],
  },
  {
    rule: "setup false in the config gives none",
    facts: F({ baseLockfiles: { "package-lock.json": "a" } }),
    settings: { reuse: true, setup: false },
    expect: ["node:none"],
    command: null,
  },
  {
    rule: "a configured command replaces the detected ones, once",
    facts: F({ baseLockfiles: { "package-lock.json": "a", "uv.lock": "u" } }),
    settings: { reuse: true, setup: "make deps" },
    expect: ["node:setup", "python:setup"],
    command: "make deps",
  },
  { rule: "nothing to install, nothing planned", facts: F(), expect: [], command: null },
  {
    rule: "node reused and python set up in one project",
    facts: F({
      baseLockfiles: { "package-lock.json": "a", "uv.lock": "u" },
      workingLockfiles: { "package-lock.json": "a" },
      sourceDirs: { node_modules: { ignored: true } },
    }),
    expect: ["node:reuse", "python:setup"],
    command: "uv sync --frozen --no-install-project",
  },
];

for (const row of ROWS) {
  Deno.test(`planDependencies(): ${row.rule}`, () => {
    const plan = planDependencies(row.facts, row.settings ?? AUTO);
    assert.deepEqual(
      plan.ecosystems.map((e) => `${e.ecosystem}:${e.source}`),
      row.expect,
      JSON.stringify(plan),
    );
    if (row.command !== undefined) assert.equal(plan.setupCommand, row.command);
    for (const e of plan.ecosystems) assert.ok(e.reason.length > 10, "every decision says why");
  });
}

Deno.test("planDependencies() keys a setup on its lockfiles and lists the dirs it reuses", () => {
  const plan = planDependencies(
    F({
      baseLockfiles: { "package-lock.json": "a", "uv.lock": "u" },
      workingLockfiles: { "package-lock.json": "a" },
      sourceDirs: { node_modules: { ignored: true } },
    }),
    AUTO,
  );
  assert.deepEqual(plan.reuse, ["node_modules"]);
  assert.deepEqual(plan.setupInputs, { "uv.lock": "u" });
});
