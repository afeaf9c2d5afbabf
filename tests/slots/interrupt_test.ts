/**
 * Ctrl-C (SIGINT) or SIGTERM during `spot run` ends the turn at once: the worker's process group is stopped,
 * the run is recorded failed as interrupted (the move admission's reclaim makes for a dead owner, made by the
 * owner itself), its slot is free, and spot exits 130 (143); `spot recover` resumes it. Before, the run stayed
 * `running` until the next admission reclaimed it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readJsonLines } from "../../store/files.ts";
import { processAlive, spawnProcess } from "../../sandbox/spawn.ts";
import { demoScenario, FIXED_ADD, prepareScenario } from "../scenario.ts";
import { CLI, CLI_FLAGS, ROOT, spot, type SpotEnv, spotEnv } from "../helpers.ts";

/** Far longer than the test waits before interrupting: only the signal can end the turn. */
const NAP_MS = 60_000;

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

async function interrupted(env: SpotEnv, signal: "SIGINT" | "SIGTERM") {
  const sc = await demoScenario(env.dir, [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "sleep", ms: NAP_MS },
    { op: "say", text: "never reached" },
  ]);
  const id = await prepareScenario(env, sc);
  const runDir = join(env.stateDir, "runs", id);
  let pid = 0;
  const argv = [Deno.execPath(), "run", ...CLI_FLAGS, "--no-prompt", "--config", join(ROOT, "deno.json")];
  const running = spawnProcess([...argv, CLI, "run", "--id", id], {
    cwd: sc.repo,
    env: env.env,
    onSpawn: (p) => pid = p,
    reapGroup: false,
  });
  await waitFor(
    "the worker's write",
    async () =>
      (await readJsonLines<{ type: string }>(join(runDir, "events.jsonl"))).some((e) =>
        e.type === "worker_tool_result"
      ),
  );
  const active = JSON.parse(await Deno.readTextFile(join(runDir, "active-step.json")));
  const started = Date.now();
  Deno.kill(pid, signal);
  const ended = await running;
  return { sc, id, runDir, active, ended, tookMs: Date.now() - started };
}

Deno.test("SIGINT during spot run stops the worker's group, records the run failed as interrupted, exits 130", async () => {
  const env = await spotEnv();
  const { sc, id, runDir, active, ended, tookMs } = await interrupted(env, "SIGINT");
  assert.equal(ended.exitCode, 130, ended.stderr);
  assert.ok(tookMs < NAP_MS / 2, `ended in ${tookMs} ms, not when the episode's nap ran out`);
  const error = JSON.parse(ended.stderr.trim().split("\n").pop()!).error;
  assert.equal(error.code, "WORKER_INTERRUPTED");
  assert.equal(error.details.nextCommand, `spot recover --id ${id}`);
  // The step and the worker it started are gone by the time spot exits: nothing waits for a reclaim.
  for (const p of [active.pid, active.childPid].filter(Boolean)) assert.ok(!processAlive(p), `process ${p}`);

  const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  assert.equal(state.status, "failed", "not left running until the next admission");
  assert.equal(state.failure.code, "WORKER_INTERRUPTED");
  assert.match(state.failure.message, /interrupted by SIGINT/);
  assert.match(state.failure.message, /spot recover --id/);
  assert.equal(state.failure.details.phase, "running");
  assert.equal(state.failure.details.nextCommand, `spot recover --id ${id}`);
  assert.deepEqual([state.interruption.signal, state.interruption.phase], ["SIGINT", "running"]);
  assert.equal(state.transitions.at(-1).to, "failed");
  assert.match(state.transitions.at(-1).reason, /^WORKER_INTERRUPTED: /);
  const list = await spot(env, sc.repo, "list", "--running");
  assert.equal(list.json.count, 0, "it holds no slot and is not active");

  // recover resumes it like a reclaimed run: the worker's write is verified, not thrown away.
  const recover = await spot(env, sc.repo, "recover", "--id", id);
  assert.equal(recover.code, 0, recover.stderr);
  assert.equal(recover.json.status, "verifying");
  assert.equal(recover.json.nextCommand, `spot verify --id ${id}`);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("SIGTERM during spot run does the same and exits 143", async () => {
  const env = await spotEnv();
  const { runDir, ended } = await interrupted(env, "SIGTERM");
  assert.equal(ended.exitCode, 143, ended.stderr);
  const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  assert.equal(state.status, "failed");
  assert.match(state.failure.message, /interrupted by SIGTERM/);
  assert.equal(state.interruption.signal, "SIGTERM");
  await Deno.remove(env.dir, { recursive: true });
});
