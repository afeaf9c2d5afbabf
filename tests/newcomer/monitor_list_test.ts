/**
 * `spot monitor --list` follows what is still going on, active runs first, and names the runs its pane cap
 * leaves out. A newcomer saw discarded and integrated runs listed (their logs were fresh), the one active run
 * last, and `"shown": 9` with no word on which were dropped.
 */
import assert from "node:assert/strict";
import { spot, spotEnv } from "../helpers.ts";
import { demoScenario, prepareScenario } from "../scenario.ts";

type Listed = { runs: { runId: string; why: string }[]; shown: number; maxPanes: number; notShown: string[] };

Deno.test("monitor --list leaves ended runs out, puts active ones first and names those past the cap", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const discarded = await prepareScenario(env, sc, "--sandbox", "none");
  assert.equal((await spot(env, sc.repo, "run", "--id", discarded)).code, 0);
  assert.equal((await spot(env, sc.repo, "discard", "--id", discarded)).code, 0);
  const older = await prepareScenario(env, sc, "--sandbox", "none");
  const newer = await prepareScenario(env, sc, "--sandbox", "none");

  const list = await spot(env, sc.repo, "monitor", "--list");
  assert.equal(list.code, 0, list.stderr);
  const shown = list.json as unknown as Listed;
  assert.deepEqual(shown.runs.map((r) => r.runId), [older, newer], "no discarded run, active ones in order");
  assert.deepEqual(shown.notShown, []);

  env.env.PI_MONITOR_MAX = "1";
  const capped = (await spot(env, sc.repo, "monitor", "--list")).json as unknown as Listed;
  assert.equal(capped.shown, 1);
  assert.equal(capped.maxPanes, 1);
  assert.deepEqual(capped.notShown, [newer], "the run past the cap is named");
  await Deno.remove(env.dir, { recursive: true });
});
