/** A `kill -9` of `spot run` mid-episode loses nothing: recover, then the loop finishes. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readJsonLines } from "../store/files.ts";
import { processAlive, spawnProcess } from "../sandbox/spawn.ts";
import { demoScenario, FIXED_ADD, prepareScenario } from "./scenario.ts";
import { CLI, CLI_FLAGS, ROOT, spot, type SpotEnv, spotEnv, writeJson } from "./helpers.ts";

/** How long the episode naps after its write: far longer than the test waits before killing. */
const NAP_MS = 60_000;

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** Starts `spot run` as a real process and returns once the run's events show `eventType`. */
async function runUntil(env: SpotEnv, repo: string, id: string, eventType: string) {
  let pid = 0;
  const argv = [
    Deno.execPath(),
    "run",
    ...CLI_FLAGS,
    "--no-prompt",
    "--config",
    join(ROOT, "deno.json"),
    CLI,
    "run",
    "--id",
    id,
  ];
  const running = spawnProcess(argv, { cwd: repo, env: env.env, onSpawn: (p) => pid = p, reapGroup: false });
  const events = join(env.stateDir, "runs", id, "events.jsonl");
  await waitFor(
    `a ${eventType} event`,
    async () => (await readJsonLines<{ type: string }>(events)).some((e) => e.type === eventType),
  );
  return { pid, running };
}

Deno.test("kill -9 of spot run mid-episode, then recover, then the loop finishes", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "sleep", ms: NAP_MS },
    { op: "say", text: "never reached" },
  ]);
  const id = await prepareScenario(env, sc);
  const runDir = join(env.stateDir, "runs", id);
  const { pid, running } = await runUntil(env, sc.repo, id, "worker_tool_result");
  const active = JSON.parse(await Deno.readTextFile(join(runDir, "active-step.json")));
  Deno.kill(pid, "SIGKILL");
  const killed = await running;
  assert.equal(killed.signal, "SIGKILL");

  const stuck = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  assert.equal(stuck.status, "running");
  // The orphaned step notices its parent is gone and ends the worker it started, without help.
  for (const p of [active.pid, active.childPid]) {
    await waitFor(`process ${p} to be gone`, () => Promise.resolve(!processAlive(p)), 10_000);
  }
  // The lock died with its holder: recover gets in at once.
  const recover = await spot(env, sc.repo, "recover", "--id", id);
  assert.equal(recover.code, 0, recover.stderr);
  assert.equal(recover.json.status, "verifying");
  assert.equal(recover.json.nextCommand, `spot verify --id ${id}`);

  const verify = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(verify.json.passed, true, verify.stderr);
  const review = join(env.dir, "review.json");
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: verify.json.diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "ok",
  });
  assert.equal(
    (await spot(env, sc.repo, "approve", "--id", id, "--review", review, "--message", "Fix add()")).code,
    0,
  );
  const integrate = await spot(env, sc.repo, "integrate", "--id", id);
  assert.equal(integrate.json.status, "integrated", integrate.stderr);

  // Nothing lost: the events before the kill are still there, and the transitions tell the story.
  const events = await readJsonLines<{ type: string; name?: string }>(join(runDir, "events.jsonl"));
  assert.ok(events.some((e) => e.type === "worker_tool_call" && e.name === "write"));
  const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  assert.deepEqual(state.transitions.map((t: { to: string }) => t.to), [
    "prepared",
    "running",
    "verifying",
    "selfReviewing",
    "reviewing",
    "approved",
    "committed",
    "integrated",
  ]);
  assert.match(state.transitions[2].reason, /^recover:/);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("recover sends an untouched worktree back to run, and a second spot run is refused while one holds the lock", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [{ op: "sleep", ms: NAP_MS }]);
  const id = await prepareScenario(env, sc);
  const { pid, running } = await runUntil(env, sc.repo, id, "worker_start");
  const busy = await spot(env, sc.repo, "recover", "--id", id);
  assert.equal(busy.code, 5);
  assert.equal((busy.json.error as { code: string }).code, "RUN_LOCKED");
  Deno.kill(pid, "SIGKILL");
  await running;
  const recover = await spot(env, sc.repo, "recover", "--id", id);
  assert.equal(recover.json.status, "prepared", recover.stderr);
  assert.equal(recover.json.nextCommand, `spot run --id ${id}`);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a quota wall keeps the partial work, says how to go on, and recover resumes the run", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "fail", message: "429 You exceeded your current quota (insufficient_quota)" },
  ]);
  const id = String(
    (await spot(
      env,
      sc.repo,
      "prepare",
      "--task",
      sc.taskFile,
      "--profile",
      "replay",
      "--model",
      sc.episodeFile,
    ))
      .json.runId,
  );
  const run = await spot(env, sc.repo, "run", "--id", id);
  assert.equal(run.code, 3, run.stderr);
  const details = (run.json.error as { details: Record<string, string> }).details;
  assert.equal(details.nextCommand, `spot recover --id ${id}`);
  assert.match(details.partialWork, /kept in .*worktrees/);
  const recover = await spot(env, sc.repo, "recover", "--id", id);
  assert.deepEqual([recover.json.status, recover.json.nextCommand], ["verifying", `spot verify --id ${id}`]);
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(verify.json.passed, true, verify.stderr);
  // A failure that is not a provider wall stays final.
  const sc2 = await demoScenario(env.dir, [{ op: "fail", message: "401 invalid api key" }]);
  const id2 = String(
    (await spot(
      env,
      sc2.repo,
      "prepare",
      "--task",
      sc2.taskFile,
      "--profile",
      "replay",
      "--model",
      sc2.episodeFile,
    ))
      .json.runId,
  );
  await spot(env, sc2.repo, "run", "--id", id2);
  const stays = await spot(env, sc2.repo, "recover", "--id", id2);
  assert.deepEqual([stays.json.status, stays.json.recovered], ["blocked", false]);
  await Deno.remove(env.dir, { recursive: true });
});
