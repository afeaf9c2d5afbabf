/**
 * `doctor` says what a run prepared here would get for the project's dependencies before anything is
 * installed, and `inspect` shows what a run got. Cheap: the replay worker, no sandbox needed, no install.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, spot, spotEnv, writeEpisode, writeJson } from "../helpers.ts";

const LOCK = JSON.stringify({
  name: "p",
  version: "1.0.0",
  lockfileVersion: 3,
  requires: true,
  packages: {},
});
const FILES = {
  "package.json": '{"name":"p","version":"1.0.0"}\n',
  "package-lock.json": LOCK + "\n",
  ".gitignore": "node_modules/\n",
  "add.js": "exports.add = (a, b) => a - b;\n",
};

interface Check {
  name: string;
  detail: string;
  warn?: boolean;
  fix?: string;
}
const dependencyLine = (json: Record<string, unknown>) =>
  (json.checks as Check[]).find((c) => c.name === "dependencies")!;

Deno.test("doctor: setup from the lockfile when nothing is installed, reuse once node_modules is, none when setup is off", async () => {
  const env = await spotEnv({ sandbox: "none" });
  try {
    const repo = await makeRepo(FILES, env.dir);
    const planned = await spot(env, repo, "doctor", "--profile", "replay", "--model", "episode.jsonl");
    assert.equal(planned.code, 0, planned.stderr);
    const line = dependencyLine(planned.json);
    assert.match(
      line.detail,
      /node: setup `npm ci --prefer-offline --no-audit --no-fund` \(runs at prepare\)/,
    );
    assert.equal(line.warn, false);
    const outlook = planned.json.dependencies as { setup: { key: string; madeAt: string | null } };
    assert.equal(outlook.setup.madeAt, null);

    await Deno.mkdir(join(repo, "node_modules"));
    const reused = dependencyLine(
      (await spot(env, repo, "doctor", "--profile", "replay", "--model", "episode.jsonl")).json,
    );
    assert.match(
      reused.detail,
      /node: reuse: the source checkout's node_modules was installed from the base's/,
    );

    await Deno.remove(join(repo, "node_modules"));
    await writeJson(env.configFile, { sandbox: "none", dependencies: { setup: false } });
    const off = dependencyLine(
      (await spot(env, repo, "doctor", "--profile", "replay", "--model", "episode.jsonl")).json,
    );
    assert.match(off.detail, /node: none: no node_modules in the source checkout, and setup is off/);
    assert.equal(off.warn, true);
    assert.match(off.fix ?? "", /\.worktreeinclude/);
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});

Deno.test("inspect shows the dependencies a run got", async () => {
  const env = await spotEnv({ sandbox: "none" });
  try {
    const repo = await makeRepo(FILES, env.dir);
    await Deno.mkdir(join(repo, "node_modules"));
    const task = join(env.dir, "task.json");
    await writeJson(task, {
      schemaVersion: 1,
      goal: "Fix add.js",
      allowedPaths: ["add.js"],
      acceptanceCriteria: ["add adds"],
      verification: [{ argv: ["true"], timeoutSeconds: 10 }],
      risk: "low",
    });
    const episode = join(env.dir, "episode.jsonl");
    await writeEpisode(episode, []);
    const prep = await spot(env, repo, "prepare", "--task", task, "--profile", "replay", "--model", episode);
    assert.equal(prep.code, 0, prep.stderr);
    const shown = await spot(env, repo, "inspect", "--id", String(prep.json.runId));
    const deps = shown.json.dependencies as { ecosystems: { source: string }[]; dirs: { path: string }[] };
    assert.deepEqual(deps.ecosystems.map((e) => e.source), ["reuse"]);
    assert.deepEqual(deps.dirs.map((d) => d.path), ["node_modules"]);
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});
