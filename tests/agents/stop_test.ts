/** `spot agent stop`, `ls` and `peek` on a real agent whose worker is mid-turn. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv } from "../helpers.ts";
import { descendants, readProcesses } from "../../worker/process_tree.ts";
import { groupMembers, processAlive, slowScenario, startArgs } from "./agent_helpers.ts";

async function openStepPids(runDir: string): Promise<number[]> {
  const text = await Deno.readTextFile(join(runDir, "events.jsonl")).catch(() => "");
  const events = text.split("\n").filter((l) => l).map((l) => JSON.parse(l));
  return events.filter((e) => e.type === "step_start" && e.pid).map((e) => e.pid as number);
}

async function until(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("timed out waiting");
}

Deno.test("agent stop ends the driver's and the worker step's process groups, unregisters, and repeats harmlessly", async () => {
  const env = await spotEnv();
  const sc = await slowScenario(env.dir, 60_000);
  const r = await spot(env, sc.repo, ...startArgs("long", sc));
  assert.equal(r.code, 0, r.stderr);
  const pid = r.json.pid as number;
  const runDir = String(r.json.runDir);
  // Wait until the worker step runs in its own group (spot's steps are each their own session).
  await until(async () => (await openStepPids(runDir)).length > 0);
  // Every group under the driver: its own, the worker step's, and the worker's (each step starts its own).
  await until(() => Promise.resolve(new Set(descendants(readProcesses(), pid).map((p) => p.pgrp)).size >= 3));
  const tree = descendants(readProcesses(), pid);
  const groups = [...new Set([pid, ...(await openStepPids(runDir)), ...tree.map((p) => p.pgrp)])];
  assert.ok(groups.length >= 3, `expected the driver, step and worker groups, got ${groups}`);
  // The worker's first text may land a moment after its group appears.
  let peek = await spot(env, sc.repo, "agent", "peek", "long");
  await until(async () =>
    (peek = await spot(env, sc.repo, "agent", "peek", "long")).stdout.includes("TEXT ")
  );
  const lines = peek.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 4);
  assert.match(lines[0], /^WATCH RUN=\S+ ELAPSED=\d+s EVENTS=\d+ BYTES=\d+ TERMINAL=no$/);
  assert.match(lines[1], /^TOOLS done=0\/0 last=-$/);
  assert.match(lines[2], /^TOKENS ctx=0 out=0$/);
  assert.equal(lines[3], "TEXT Reading add.ts.");
  assert.match((await spot(env, sc.repo, "agent", "ls")).stdout, /^long RUNNING \d+s \d+B stale=\d+s\n$/);

  const stop = await spot(env, sc.repo, "agent", "stop", "long");
  assert.equal(stop.code, 0, stop.stderr);
  assert.equal(stop.json.pgid, pid);
  assert.equal(stop.json.unregistered, true);
  assert.deepEqual(groupMembers(groups), [], "a process of the agent outlived stop");
  assert.equal(processAlive(pid), false);
  const again = await spot(env, sc.repo, "agent", "stop", "long");
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual([again.json.pgid, again.json.unregistered], [null, false]);
  assert.equal((await spot(env, sc.repo, "agent", "ls")).stdout.trim(), "no agents");
  // The run stays in the run store, with the stop in its events.
  assert.match(
    await Deno.readTextFile(join(runDir, "events.jsonl")),
    /"type":"agent","name":"long","state":"stopped"/,
  );
});

Deno.test("agent ls prunes a name whose run is gone and keeps one that has something to say", async () => {
  const env = await spotEnv();
  const sc = await slowScenario(env.dir, 10);
  const r = await spot(env, sc.repo, ...startArgs("gone", sc));
  assert.equal(r.code, 0, r.stderr);
  await until(async () => {
    try {
      await Deno.stat(join(env.stateDir, "agents", "gone", "rc"));
      return true;
    } catch {
      return false;
    }
  });
  const kept = await spot(env, sc.repo, "agent", "ls", "--json");
  assert.deepEqual((kept.json.agents as { name: string }[]).map((a) => a.name), ["gone"]);
  // The agent's run directory and its markers removed: nothing is left to report, so the name is dangling.
  await Deno.remove(String(r.json.runDir), { recursive: true });
  for (const f of ["rc", "status", "error.json"]) {
    await Deno.remove(join(env.stateDir, "agents", "gone", f)).catch(() => {});
  }
  const ls = await spot(env, sc.repo, "agent", "ls", "--json");
  assert.deepEqual(ls.json.agents, []);
  assert.deepEqual(ls.json.pruned, ["gone"]);
});
