import assert from "node:assert/strict";
import { matchesGlob } from "./glob.ts";
import { RUNNER_RULES, runnerLockPatterns } from "./runner_locks.ts";

/** One row per runner: a check it starts, a file that can steer it, and a check that must not lock it. */
const ROWS: { argv: string[]; steers: string; other: string[] }[] = [
  { argv: ["make", "test"], steers: "Makefile", other: ["deno", "test"] },
  { argv: ["/usr/bin/make", "-C", "sub", "check"], steers: "sub/rules.mk", other: ["go", "test"] },
  { argv: ["python3", "-m", "pytest"], steers: "pyproject.toml", other: ["make"] },
  { argv: ["python", "-m", "unittest"], steers: "setup.cfg", other: ["make"] },
  { argv: ["pytest", "-q"], steers: "tests/conftest.py", other: ["cargo", "test"] },
  { argv: ["tox"], steers: "tox.ini", other: ["npm", "test"] },
  { argv: ["python3.12", "-m", "pytest"], steers: "src/sitecustomize.py", other: ["node", "--test"] },
  { argv: ["python3", "-m", "pytest"], steers: "pytest.toml", other: ["make"] },
  { argv: ["pytest"], steers: ".coveragerc", other: ["make"] },
  { argv: ["python3", "-m", "unittest"], steers: ".python-version", other: ["node", "--test"] },
  { argv: ["cargo", "test"], steers: "Cargo.toml", other: ["python3", "-m", "pytest"] },
  { argv: ["cargo", "test"], steers: "crates/a/build.rs", other: ["make"] },
  { argv: ["cargo", "test"], steers: ".cargo/config.toml", other: ["make"] },
  { argv: ["deno", "test"], steers: "deno.json", other: ["cargo", "test"] },
  { argv: ["deno", "task", "test"], steers: "deno.jsonc", other: ["go", "test"] },
  { argv: ["go", "test", "./..."], steers: "go.mod", other: ["deno", "test"] },
  { argv: ["npm", "test"], steers: ".npmrc", other: ["go", "test"] },
  { argv: ["pnpm", "test"], steers: "tsconfig.json", other: ["cargo", "test"] },
  { argv: ["npx", "vitest", "run"], steers: "vitest.config.ts", other: ["make"] },
  { argv: ["yarn", "test"], steers: ".yarnrc.yml", other: ["make"] },
  { argv: ["bun", "test"], steers: "tsconfig.base.json", other: ["python3", "x.py"] },
  { argv: ["node", "--test"], steers: "jsconfig.json", other: ["make"] },
  { argv: ["npx", "playwright", "test"], steers: "e2e/playwright.config.ts", other: ["go", "test"] },
];

const locked = (argv: string[], path: string) => runnerLockPatterns([argv]).some((p) => matchesGlob(path, p));

for (const row of ROWS) {
  Deno.test(`runnerLockPatterns(): \`${row.argv.join(" ")}\` locks ${row.steers}, \`${row.other.join(" ")}\` does not`, () => {
    assert.ok(locked(row.argv, row.steers), JSON.stringify(runnerLockPatterns([row.argv])));
    assert.ok(!locked(row.other, row.steers));
  });
}

Deno.test("every runner rule has a row above", () => {
  for (const rule of RUNNER_RULES) {
    assert.ok(ROWS.some((row) => rule.matches(row.argv)), rule.runner);
  }
});

Deno.test("runnerLockPatterns() locks nothing for a check it does not recognise, and each file once", () => {
  assert.deepEqual(runnerLockPatterns([["sh", "scripts/test.sh"], ["true"]]), []);
  const both = runnerLockPatterns([["npm", "test"], ["node", "--test"]]);
  assert.equal(both.length, new Set(both).size);
});
