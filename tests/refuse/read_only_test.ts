/**
 * Commands that only look create nothing: on a machine where spot has never run, doctor, list, inspect,
 * diff, sandbox, config path|show|validate, agent poll|peek|ls, job status and monitor --list leave no
 * config file, no state or cache directory and no audit line behind. A command that changes something still
 * makes what it needs. detect writes only its own cache file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv } from "../helpers.ts";
import { demoScenario } from "../scenario.ts";

const LOOKS: string[][] = [
  ["doctor"],
  ["list"],
  ["inspect", "--id", "run-nothing"],
  ["diff", "--id", "run-nothing"],
  ["sandbox"],
  ["config", "path"],
  ["config", "show"],
  ["config", "validate"],
  ["agent", "ls"],
  ["agent", "poll", "nobody"],
  ["agent", "peek", "nobody"],
  ["job", "status", "job-20250101-000000-aaaaaa"],
  ["monitor", "--list"],
];

/** Every path under `dir`, relative, sorted. */
async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(join(dir, rel))) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      out.push(path);
      if (e.isDirectory && !path.startsWith("spot-repo-")) await walk(path);
    }
  };
  await walk("");
  return out.sort();
}

Deno.test("commands that only look create no config, state, cache or audit line where spot never ran", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const before = await tree(env.dir);
  for (const args of [...LOOKS, ["doctor", "--task", sc.taskFile]]) {
    const r = await spot(env, sc.repo, ...args);
    assert.notEqual(r.code, 1, `${args.join(" ")} crashed: ${r.stderr}`);
    assert.deepEqual(await tree(env.dir), before, `spot ${args.join(" ")} created something`);
  }
  // detect's job is its 10-minute cache: that file, in the cache dir, and nothing else.
  assert.equal((await spot(env, sc.repo, "detect")).code, 0);
  const cached = (await tree(env.dir)).filter((p) => !before.includes(p));
  assert.deepEqual(cached, ["cache", "cache/registry.json"]);
  const list = await spot(env, sc.repo, "list");
  assert.deepEqual([list.json.count, list.json.total], [0, 0]);
  const show = await spot(env, sc.repo, "config", "show");
  assert.ok(
    (show.json.config as { profiles: Record<string, unknown> }).profiles.replay,
    "defaults, in memory",
  );
  // A command that changes something makes its places, and the looks then read them.
  const prep = await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    sc.taskFile,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
    "--sandbox",
    "none",
  );
  assert.equal(prep.code, 0, prep.stderr);
  for (const made of [env.configFile, join(env.stateDir, "runs", String(prep.json.runId), "state.json")]) {
    assert.ok((await Deno.lstat(made)).isFile, made);
  }
  const listed = await spot(env, sc.repo, "list");
  assert.equal(listed.json.count, 1, listed.stderr);
  await Deno.remove(env.dir, { recursive: true });
});
