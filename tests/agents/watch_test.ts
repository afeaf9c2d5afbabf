/** `spot agent watch`: changed lines only, and a provider wall that stops only the watched siblings. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv, writeEpisode } from "../helpers.ts";
import { BUGGY_ADD, demoScenario, FIXED_ADD } from "../scenario.ts";
import { REPLAY } from "./agent_helpers.ts";

Deno.test("agent watch: a quota wall stops the worker, aborts only its watched siblings and rolls their worktrees back", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const episodes = {
    walled: [{ op: "sleep", ms: 1500 }, {
      op: "fail",
      message: "429 You exceeded your current quota, please check your plan and billing details",
    }],
    sibling: [{ op: "write", path: "add.ts", content: FIXED_ADD }, { op: "say", text: "half way" }, {
      op: "sleep",
      ms: 60_000,
    }],
    outsider: [{ op: "say", text: "not watched" }, { op: "sleep", ms: 60_000 }],
  };
  const runDirs: Record<string, string> = {};
  for (const [name, lines] of Object.entries(episodes)) {
    const file = join(env.dir, `${name}.jsonl`);
    await writeEpisode(file, lines);
    const r = await spot(
      env,
      sc.repo,
      "agent",
      "start",
      name,
      "--task",
      sc.taskFile,
      ...REPLAY,
      "--model",
      file,
    );
    assert.equal(r.code, 0, r.stderr);
    runDirs[name] = String(r.json.runDir);
  }
  const watch = await spot(env, sc.repo, "agent", "watch", "walled", "sibling", "--interval", "0.5");
  assert.equal(watch.code, 0, watch.stderr);
  const out = watch.stdout.trimEnd().split("\n");
  assert.equal(out.at(-1), "--- no agents in flight ---");
  const last = (name: string) => out.findLast((l) => l.startsWith(`${name}: `)) ?? "";
  assert.match(
    last("walled"),
    /^walled: STATUS=FAIL .* (QUOTA|ERROR terminal=error QUOTA) .*cause:429 you exceeded/,
  );
  assert.match(last("sibling"), /^sibling: STATUS=FAIL OUTPUT=\S+ \d+s \d+B QUOTA sibling-abort model=/);
  // Printed only when changed: no two consecutive lines of one agent are the same once durations are normalised.
  for (const name of ["walled", "sibling"]) {
    const mine = out.filter((l) => l.startsWith(`${name}: `)).map((l) => l.replace(/\b\d+s\b/g, "Ns"));
    assert.equal(new Set(mine).size, mine.length, `${name} printed an unchanged line: ${mine}`);
  }
  // The sibling's worktree (spot's) is back at its base; the user's repository was never touched.
  const events = await Deno.readTextFile(join(runDirs.sibling, "events.jsonl"));
  assert.match(
    events,
    /"type":"worker_tool_call"[^\n]*"name":"write"/,
    "the sibling never wrote: nothing to roll back",
  );
  const state = JSON.parse(await Deno.readTextFile(join(runDirs.sibling, "state.json")));
  assert.equal(await Deno.readTextFile(join(state.worktreePath, "add.ts")), BUGGY_ADD);
  assert.equal(await Deno.readTextFile(join(sc.repo, "add.ts")), BUGGY_ADD);
  // The agent nobody asked this watch about runs on.
  assert.match((await spot(env, sc.repo, "agent", "poll", "outsider")).stdout, /^RUNNING /);
  for (const name of Object.keys(episodes)) await spot(env, sc.repo, "agent", "stop", name);
});
