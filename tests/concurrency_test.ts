/** maxConcurrentRuns holds when many prepares race, and no state file is torn. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { demoScenario } from "./scenario.ts";
import { spot, spotEnv } from "./helpers.ts";

const RACERS = 32;
const CAP = 4;

Deno.test(`${RACERS} racing prepares with maxConcurrentRuns ${CAP} admit exactly ${CAP}`, async () => {
  const env = await spotEnv({ maxConcurrentRuns: CAP });
  const sc = await demoScenario(env.dir);
  const results = await Promise.all(
    Array.from(
      { length: RACERS },
      () =>
        spot(
          env,
          sc.repo,
          "prepare",
          "--task",
          sc.taskFile,
          "--profile",
          "replay",
          "--model",
          sc.episodeFile,
        ),
    ),
  );
  const admitted = results.filter((r) => r.code === 0);
  const refused = results.filter((r) => r.code !== 0);
  assert.equal(admitted.length, CAP, refused.map((r) => r.stderr).slice(0, 2).join("\n"));
  for (const r of refused) {
    assert.equal(r.code, 5, r.stderr);
    assert.equal((r.json.error as { code: string }).code, "CONCURRENCY_LIMIT");
  }
  const dirs: string[] = [];
  for await (const e of Deno.readDir(join(env.stateDir, "runs"))) dirs.push(e.name);
  assert.equal(dirs.length, CAP);
  for (const d of dirs) {
    const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", d, "state.json")));
    assert.equal(state.status, "prepared");
    assert.equal(state.worktreeReady, true);
  }
  await Deno.remove(env.dir, { recursive: true });
});
