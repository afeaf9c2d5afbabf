/** Worker turns through the loop: the pi adapter on a fake pi, failures, retries, and what a worker can see. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readJsonLines } from "../store/files.ts";
import { processAlive } from "../sandbox/spawn.ts";
import { demoScenario, FIXED_ADD, prepareScenario } from "./scenario.ts";
import { ROOT, spot, spotEnv, writeEpisode, writeJson } from "./helpers.ts";

async function fakePi(dir: string, stream: string): Promise<string> {
  const path = join(dir, `fake-pi-${stream.replace(/\W/g, "")}`);
  const target = join(ROOT, "tests", "fixtures", "fake-pi");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nFAKE_PI_STREAM='${join(ROOT, "tests", "fixtures", "pi", stream)}' exec '${target}' "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

async function state(stateDir: string, id: string) {
  return JSON.parse(await Deno.readTextFile(join(stateDir, "runs", id, "state.json")));
}

Deno.test("a pi turn that exits 0 with a 401 in its stream blocks the run as auth", async () => {
  const base = await spotEnv();
  const env = await spotEnv({
    profiles: {
      "fake-pi": {
        adapter: "pi",
        provider: "fake",
        model: "fake-model",
        apiKeyEnv: "FAKE_API_KEY",
        // Nothing listens there: the fake pi never calls out, it replays a recorded 401.
        baseUrl: "http://127.0.0.1:9/v1",
        binary: await fakePi(base.dir, "auth-401.jsonl"),
      },
    },
  });
  env.env.FAKE_API_KEY = "sk-test-not-a-real-key";
  const sc = await demoScenario(env.dir);
  const id = String(
    (await spot(env, sc.repo, "prepare", "--task", sc.taskFile, "--profile", "fake-pi")).json.runId,
  );
  const run = await spot(env, sc.repo, "run", "--id", id);
  assert.equal(run.code, 4, run.stderr);
  assert.equal((run.json.error as { code: string }).code, "WORKER_BLOCKED");
  const s = await state(env.stateDir, id);
  assert.equal(s.status, "blocked");
  assert.equal(s.failure.code, "auth");
  const steps = await readJsonLines<{ kind: string; argv: string[] }>(
    join(env.stateDir, "runs", id, "steps.jsonl"),
  );
  assert.equal(steps.filter((st) => st.kind === "worker").length, 1, "auth is not retried");
  for (const st of steps) assert.ok(!st.argv.join(" ").includes("sk-test"), "the key never appears on argv");
  await Deno.remove(env.dir, { recursive: true });
  await Deno.remove(base.dir, { recursive: true });
});

Deno.test("a pi turn with a clean stream reaches verifying and sums its usage", async () => {
  const base = await spotEnv();
  const env = await spotEnv({
    profiles: {
      "fake-pi": {
        adapter: "pi",
        provider: "fake",
        model: "fake-model",
        // Nothing listens there: the fake pi never calls out.
        baseUrl: "http://127.0.0.1:9/v1",
        binary: await fakePi(base.dir, "success.jsonl"),
      },
    },
  });
  const sc = await demoScenario(env.dir);
  const id = String(
    (await spot(env, sc.repo, "prepare", "--task", sc.taskFile, "--profile", "fake-pi")).json.runId,
  );
  const run = await spot(env, sc.repo, "run", "--id", id);
  assert.equal(run.code, 0, run.stderr);
  const s = await state(env.stateDir, id);
  assert.equal(s.status, "verifying");
  assert.ok(s.workerUsage.input + s.workerUsage.output > 0, JSON.stringify(s.workerUsage));
  await Deno.remove(env.dir, { recursive: true });
  await Deno.remove(base.dir, { recursive: true });
});

Deno.test("a missing credential blocks the run before any worker starts", async () => {
  const env = await spotEnv({
    profiles: {
      needs: {
        adapter: "pi",
        provider: "fake",
        model: "m",
        apiKeyEnv: "SPOT_TEST_UNSET_KEY",
        baseUrl: "http://127.0.0.1:9/v1",
        binary: "/bin/true",
      },
    },
  });
  const sc = await demoScenario(env.dir);
  const id = String(
    (await spot(env, sc.repo, "prepare", "--task", sc.taskFile, "--profile", "needs")).json.runId,
  );
  const run = await spot(env, sc.repo, "run", "--id", id);
  assert.equal(run.code, 4);
  assert.match((run.json.error as { message: string }).message, /SPOT_TEST_UNSET_KEY is not set/);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a rate-limited turn is retried once, then the run fails with the classified code", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [
    { op: "usage", input: 100, output: 10 },
    { op: "fail", message: "429 Rate limit reached for requests (rate_limit_exceeded)" },
  ]);
  const id = await prepareScenario(env, sc);
  const run = await spot(env, sc.repo, "run", "--id", id);
  assert.equal(run.code, 3, run.stderr);
  const s = await state(env.stateDir, id);
  assert.equal(s.status, "failed");
  assert.equal(s.failure.code, "rate_limit");
  assert.equal(s.workerAttempts, 2);
  assert.deepEqual(
    [s.workerUsage.input, s.workerUsage.output],
    [200, 20],
    "both attempts' tokens are counted",
  );
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("the worker sees a clean environment and anything it leaves running is ended", async () => {
  const env = await spotEnv();
  env.env.SPOT_TEST_PARENT_SECRET = "parent-only-value";
  const sc = await demoScenario(env.dir, [
    { op: "exec", argv: ["sh", "-c", "env > seen-env.txt"] },
    { op: "exec", argv: ["sh", "-c", "sleep 300 > /dev/null 2>&1 & echo $! > bg.pid"] },
    { op: "say", text: "done" },
  ]);
  // Host-side pids: under bwrap the worker lives in its own PID namespace.
  const id = await prepareScenario(env, sc, "--sandbox", "none");
  assert.equal((await spot(env, sc.repo, "run", "--id", id)).code, 0);
  const worktree = (await state(env.stateDir, id)).worktreePath;
  const seen = await Deno.readTextFile(join(worktree, "seen-env.txt"));
  assert.ok(!seen.includes("parent-only-value"), "a parent env var leaked into the worker");
  assert.ok(!seen.includes("PI_WORKER_STATE_DIR"), "spot's own settings leaked into the worker");
  assert.match(seen, /^HOME=.*\/homes\/run-/m);
  const bg = Number((await Deno.readTextFile(join(worktree, "bg.pid"))).trim());
  assert.ok(bg > 0);
  assert.equal(processAlive(bg), false, `background process ${bg} outlived the worker`);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a transient failure retries once, then follows the profile's fallback chain and records it", async () => {
  const base = await spotEnv();
  const flaky = join(base.dir, "flaky.jsonl");
  const steady = join(base.dir, "steady.jsonl");
  await writeEpisode(flaky, [{ op: "usage", input: 50, output: 5 }, {
    op: "fail",
    message: "503 upstream overloaded, try again",
  }]);
  await writeEpisode(steady, [{ op: "write", path: "add.ts", content: FIXED_ADD }, {
    op: "usage",
    input: 70,
    output: 7,
  }]);
  const env = await spotEnv({
    profiles: {
      flaky: { adapter: "replay", provider: "replay", model: flaky, fallbackProfiles: ["steady"] },
      steady: { adapter: "replay", provider: "replay", model: steady },
    },
  });
  const sc = await demoScenario(env.dir);
  const id = String(
    (await spot(env, sc.repo, "prepare", "--task", sc.taskFile, "--profile", "flaky")).json.runId,
  );
  const run = await spot(env, sc.repo, "run", "--id", id);
  assert.equal(run.code, 0, run.stderr);
  const s = await state(env.stateDir, id);
  assert.deepEqual([s.status, s.profile, s.model, s.fallbackUsed], ["verifying", "steady", steady, true]);
  assert.equal(s.workerAttempts, 3, "two tries on flaky, one on steady");
  assert.deepEqual([s.workerUsage.input, s.workerUsage.output], [170, 17]);
  // Without a chain the same failure ends the run.
  const lone = await spotEnv({
    profiles: { flaky: { adapter: "replay", provider: "replay", model: flaky } },
  });
  const sc2 = await demoScenario(lone.dir);
  const id2 = String(
    (await spot(lone, sc2.repo, "prepare", "--task", sc2.taskFile, "--profile", "flaky")).json.runId,
  );
  assert.equal((await spot(lone, sc2.repo, "run", "--id", id2)).code, 3);
  for (const e of [base, env, lone]) await Deno.remove(e.dir, { recursive: true });
});

Deno.test("a keyed profile with no known upstream is refused inside the OS sandbox with the fix, not left to time out", async () => {
  const base = await spotEnv();
  const binary = await fakePi(base.dir, "success.jsonl");
  const profile = { adapter: "pi", provider: "fake", model: "fake-model", apiKeyEnv: "FAKE_API_KEY", binary };
  const env = await spotEnv({ profiles: { nourl: profile } });
  env.env.FAKE_API_KEY = "sk-test-not-a-real-key";
  const sc = await demoScenario(env.dir);
  const prep = await spot(env, sc.repo, "prepare", "--task", sc.taskFile, "--profile", "nourl");
  assert.equal(prep.code, 2, prep.stderr);
  const error = prep.json.error as { code: string; message: string };
  assert.equal(error.code, "PROVIDER_UNREACHABLE");
  assert.match(error.message, /tried the forwarder.*set profiles\.nourl\.baseUrl .*--sandbox none/);
  assert.equal((await spot(env, sc.repo, "list")).json.count, 0, "nothing was written");
  // A run prepared while the profile had a baseUrl, whose config then lost it, is refused at run time too.
  await writeJson(env.configFile, { profiles: { nourl: { ...profile, baseUrl: "http://127.0.0.1:9/v1" } } });
  const id = String(
    (await spot(env, sc.repo, "prepare", "--task", sc.taskFile, "--profile", "nourl")).json.runId,
  );
  await writeJson(env.configFile, { profiles: { nourl: profile } });
  const run = await spot(env, sc.repo, "run", "--id", id);
  assert.equal(run.code, 4, run.stderr);
  assert.match(
    (run.json.error as { message: string }).message,
    /set profiles\.nourl\.baseUrl .*--sandbox none/,
  );
  // With the OS sandbox declined, the same profile runs (and the run records that choice).
  const sc2 = await demoScenario(env.dir);
  const id2 = String(
    (await spot(env, sc2.repo, "prepare", "--task", sc2.taskFile, "--profile", "nourl", "--sandbox", "none"))
      .json.runId,
  );
  assert.equal((await spot(env, sc2.repo, "run", "--id", id2)).code, 0);
  for (const e of [base, env]) await Deno.remove(e.dir, { recursive: true });
});
