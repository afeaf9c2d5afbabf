/**
 * The report names the worker's model as the user gave it: the replay worker's episode in full, a model named
 * under its provider whole. A newcomer read "replay/fix.jsonl" for the episode /tmp/newcomer/fix.jsonl.
 */
import assert from "node:assert/strict";
import { spot, spotEnv } from "../helpers.ts";
import { demoScenario, prepareScenario } from "../scenario.ts";

Deno.test("report.md and report --format parent name the replay episode in full", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const id = await prepareScenario(env, sc, "--sandbox", "none");
  assert.equal((await spot(env, sc.repo, "run", "--id", id)).code, 0);
  const report = await spot(env, sc.repo, "report", "--id", id);
  assert.equal(report.code, 0, report.stderr);
  const md = await Deno.readTextFile(String(report.json.reportFile));
  assert.ok(md.includes(`- Worker: replay (replay:${sc.episodeFile}), 1 attempt(s)`), md);
  const parent = await spot(env, sc.repo, "report", "--id", id, "--format", "parent");
  assert.ok(parent.stdout.includes(`Worker usage: replay (replay:${sc.episodeFile}),`), parent.stdout);
  await Deno.remove(env.dir, { recursive: true });
});
