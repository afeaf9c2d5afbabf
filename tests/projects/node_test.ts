/**
 * A node project with mocha installed in the source checkout (as a user would have it): the worker and the
 * pristine-tree check see the source's node_modules read-only, `npm test` runs the real mocha, and the fix
 * integrates. Without the dependency dirs the same check fails with "Cannot find module" and a hint.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "../helpers.ts";
import { checkOutput, projectLoop, sh } from "./harness.ts";

const FIXTURE = join(ROOT, "tests", "fixtures", "node-project");
const INSTALLED = join(ROOT, ".workers", "node-project", "node_modules");
const BUGGY = "exports.add = (a, b) => a - b;\n";
const FIXED = "exports.add = (a, b) => a + b;\n";
const TEST = [
  'const assert = require("node:assert");',
  'const { add } = require("../add.js");',
  'describe("add", () => it("adds", () => assert.strictEqual(add(2, 3), 5)));',
  "",
].join("\n");

async function files(): Promise<Record<string, string>> {
  return {
    "package.json": await Deno.readTextFile(join(FIXTURE, "package.json")),
    "package-lock.json": await Deno.readTextFile(join(FIXTURE, "package-lock.json")),
    "add.js": BUGGY,
    "test/add.test.js": TEST,
    ".gitignore": "node_modules/\n",
  };
}

const CHECK = [{ argv: ["npm", "test"], timeoutSeconds: 120, env: { NPM_CONFIG_UPDATE_NOTIFIER: "false" } }];

Deno.test("a node project: pi fixes it under bwrap and `npm test` runs mocha from the source's node_modules", async () => {
  const r = await projectLoop({
    files: await files(),
    install: (repo) => sh(repo, "cp", "-a", INSTALLED, join(repo, "node_modules")).then(() => {}),
    fix: { file: "add.js", content: FIXED },
    allowedPaths: ["add.js"],
    lockedPaths: ["test/**"],
    verification: CHECK,
  });
  try {
    const deps = r.state.dependencies as {
      ecosystems: { source: string }[];
      dirs: { path: string; from: string }[];
    };
    assert.deepEqual(deps.ecosystems.map((e) => e.source), ["reuse"]);
    assert.deepEqual(deps.dirs.map((d) => d.path), ["node_modules"]);
    assert.equal(r.verify.passed, true, await checkOutput(r.runDir));
    assert.match(await checkOutput(r.runDir), /1 passing/);
    assert.equal(r.integrate.status, "integrated", JSON.stringify(r.integrate));
    assert.equal(await Deno.readTextFile(join(r.repo, "add.js")), FIXED);
  } finally {
    await Deno.remove(r.env.dir, { recursive: true });
  }
});

Deno.test("a node project with no dependencies anywhere fails its check with a hint naming the three ways", async () => {
  const r = await projectLoop({
    files: await files(),
    fix: { file: "add.js", content: FIXED },
    allowedPaths: ["add.js"],
    lockedPaths: ["test/**"],
    verification: CHECK,
    config: { dependencies: { setup: false } },
  });
  try {
    assert.equal(r.verify.passed, false);
    const v = JSON.parse(await Deno.readTextFile(join(r.runDir, "verification.json")));
    const hint = String(v.commands[0].hint ?? "");
    assert.match(hint, /node_modules/);
    assert.match(hint, /reuse/);
    assert.match(hint, /setup/);
    assert.match(hint, /\.worktreeinclude/);
  } finally {
    await Deno.remove(r.env.dir, { recursive: true });
  }
});
