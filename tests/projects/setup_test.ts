/**
 * A project whose dependencies are installed nowhere: spot runs the install its lockfile implies (`npm ci`)
 * once, sandboxed, with network only through the egress proxy to the allowlisted registry (a real one on
 * 127.0.0.1), caches the result by command and lockfile, and shows it read-only to the worker and the
 * checks. A second run reuses it. A registry off the allowlist is refused; a setup that edits the project
 * blocks the run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, spot, spotEnv, writeJson } from "../helpers.ts";
import { checkOutput, projectLoop } from "./harness.ts";
import { PACKAGE, startRegistry } from "./registry.ts";

const BUGGY = `const { plus } = require("${PACKAGE}");\nexports.add = (a, b) => plus(a, -b);\n`;
const FIXED = `const { plus } = require("${PACKAGE}");\nexports.add = (a, b) => plus(a, b);\n`;
const TEST = [
  'const test = require("node:test");',
  'const assert = require("node:assert");',
  'const { add } = require("../add.js");',
  'test("add() adds", () => assert.strictEqual(add(2, 3), 5));',
  "",
].join("\n");
const CHECK = [{ argv: ["npm", "test"], timeoutSeconds: 120 }];

function files(lockfile: string): Record<string, string> {
  return {
    "package.json": JSON.stringify(
      {
        name: "setup-project",
        version: "1.0.0",
        scripts: { test: "node --test" },
        dependencies: { [PACKAGE]: "1.0.0" },
      },
      null,
      2,
    ) + "\n",
    "package-lock.json": lockfile,
    "add.js": BUGGY,
    "test/add.test.js": TEST,
    ".gitignore": "node_modules/\n",
  };
}

interface Setup {
  cached: boolean;
  key: string;
  network: string;
  log: string;
}

Deno.test("setup from the lockfile: npm ci through the egress proxy, cached, and reused by the next run", async () => {
  const registry = await startRegistry();
  const cache = await Deno.makeTempDir({ prefix: "spot-setup-cache-" });
  const config = { dependencies: { registries: [`127.0.0.1:${registry.port}`] } };
  // Two runs of the same project sharing one cache dir.
  const loop = () =>
    projectLoop({
      files: files(registry.lockfile("setup-project")),
      fix: { file: "add.js", content: FIXED },
      allowedPaths: ["add.js"],
      lockedPaths: ["test/**"],
      verification: CHECK,
      config,
      spotEnv: { PI_WORKER_CACHE_DIR: cache },
    });
  try {
    const first = await loop();
    const deps = first.state.dependencies as { ecosystems: { source: string }[]; setup: Setup };
    assert.deepEqual(deps.ecosystems.map((e) => e.source), ["setup"]);
    assert.equal(deps.setup.cached, false);
    assert.equal(deps.setup.network, `127.0.0.1:${registry.port}`);
    assert.ok(registry.seen.some((s) => s.endsWith(".tgz")), `npm fetched the tarball: ${registry.seen}`);
    const egress = await Deno.readTextFile(join(first.runDir, "setup-egress.jsonl"));
    assert.match(egress, new RegExp(`"decision":"allowed".*"port":${registry.port}`));
    assert.equal(first.verify.passed, true, await checkOutput(first.runDir));
    assert.equal(first.integrate.status, "integrated", JSON.stringify(first.integrate));
    // The checks after integration ran in the user's checkout: no empty mount point is left behind there.
    assert.equal(await Deno.lstat(join(first.repo, "node_modules")).catch(() => null), null);
    const doctor = await spot(first.env, first.repo, "doctor", "--profile", "pi_scripted");
    const line = (doctor.json.checks as { name: string; detail: string }[]).find((c) =>
      c.name === "dependencies"
    );
    assert.match(
      line?.detail ?? "",
      /node: setup `npm ci [^`]*` \(cached \d{4}-/,
      JSON.stringify(doctor.json),
    );
    await Deno.remove(first.env.dir, { recursive: true });

    const fetched = registry.seen.length;
    const second = await loop();
    const again = second.state.dependencies as { setup: Setup };
    assert.deepEqual(
      [again.setup.cached, again.setup.key],
      [true, deps.setup.key],
      "the same key reuses the setup",
    );
    assert.equal(registry.seen.length, fetched, "nothing was fetched again");
    assert.equal(second.verify.passed, true, await checkOutput(second.runDir));
    await Deno.remove(second.env.dir, { recursive: true });
  } finally {
    await registry.close();
    await Deno.remove(cache, { recursive: true });
  }
});

async function prepareOnly(config: Record<string, unknown>, lockfile: string) {
  const env = await spotEnv(config);
  const repo = await makeRepo(files(lockfile), env.dir);
  const taskFile = join(env.dir, "task.json");
  await writeJson(taskFile, {
    schemaVersion: 1,
    goal: "Fix add.js",
    allowedPaths: ["add.js"],
    acceptanceCriteria: ["add(2, 3) returns 5"],
    verification: CHECK,
    risk: "low",
  });
  const episode = join(env.dir, "episode.jsonl");
  await Deno.writeTextFile(episode, "");
  const prep = await spot(
    env,
    repo,
    "prepare",
    "--task",
    taskFile,
    "--profile",
    "replay",
    "--model",
    episode,
    "--sandbox",
    "bwrap",
  );
  return { env, repo, prep };
}

Deno.test("a setup whose registry is off the allowlist fails, and the proxy records the refusal", async () => {
  const registry = await startRegistry();
  try {
    const { env, prep } = await prepareOnly(
      { dependencies: { registries: ["registry.npmjs.org:443"] } },
      registry.lockfile("setup-project"),
    );
    assert.equal(prep.code, 3, prep.stderr);
    assert.equal((prep.json.error as { code: string }).code, "SETUP_FAILED");
    assert.deepEqual(registry.seen, [], "nothing reached the registry");
    const runs = [...Deno.readDirSync(join(env.stateDir, "runs"))].map((e) => e.name);
    const egress = await Deno.readTextFile(join(env.stateDir, "runs", runs[0], "setup-egress.jsonl"));
    assert.match(
      egress,
      new RegExp(`"decision":"refused".*127\\.0\\.0\\.1:${registry.port} is not on the allowlist`),
    );
    await Deno.remove(env.dir, { recursive: true });
  } finally {
    await registry.close();
  }
});

Deno.test("a setup that edits a tracked file blocks the run with SETUP_CHANGED_TREE", async () => {
  const registry = await startRegistry();
  try {
    const { env, prep } = await prepareOnly(
      {
        dependencies: {
          registries: [`127.0.0.1:${registry.port}`],
          setup: "npm ci --no-audit --no-fund && echo '// touched' >> add.js",
        },
      },
      registry.lockfile("setup-project"),
    );
    assert.equal(prep.code, 4, prep.stderr);
    const error = prep.json.error as { code: string; message: string };
    assert.equal(error.code, "SETUP_CHANGED_TREE");
    assert.match(error.message, /add\.js/);
    const runs = [...Deno.readDirSync(join(env.stateDir, "runs"))].map((e) => e.name);
    const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", runs[0], "state.json")));
    assert.deepEqual([state.status, state.failure.code], ["blocked", "SETUP_CHANGED_TREE"]);
    await Deno.remove(env.dir, { recursive: true });
  } finally {
    await registry.close();
  }
});
