/**
 * Corpus, part 7: a worker without an OS sandbox leaves a daemon behind that has shed everything an
 * environment-based search would look for (its HOME, its whole env) and its process group and session.
 * It was seen under the worker, so it is ended after the turn all the same.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { processAlive } from "../../sandbox/spawn.ts";
import { spot, spotEnv } from "../helpers.ts";
import { demoScenario, FIXED_ADD, prepareScenario } from "../scenario.ts";

Deno.test("corpus: a setsid daemon with a scrubbed env is still ended after the worker's turn", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    // It stays under the worker for a second before its parent exits: long enough to be seen.
    {
      op: "exec",
      argv: [
        "sh",
        "-c",
        "env -i HOME=/nowhere setsid sleep 300 >/dev/null 2>&1 & echo $! > daemon.pid; sleep 1",
      ],
    },
  ]);
  const id = await prepareScenario(env, sc, "--sandbox", "none");
  const run = await spot(env, sc.repo, "run", "--id", id);
  assert.equal(run.code, 0, run.stderr);
  const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "state.json")));
  const pid = Number((await Deno.readTextFile(join(state.worktreePath, "daemon.pid"))).trim());
  try {
    assert.ok(pid > 1);
    assert.equal(processAlive(pid), false, `daemon ${pid} outlived the worker's turn`);
    const events = await Deno.readTextFile(join(env.stateDir, "runs", id, "events.jsonl"));
    assert.match(
      events,
      new RegExp(`Ended \\d+ process\\(es\\) the worker left outside its group: [^"]*\\b${pid}\\b`),
    );
  } finally {
    if (processAlive(pid)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(env.dir, { recursive: true });
  }
});
