/** Run directories the original pi-worker left in the state directory: listed, inspected, shown, never driven. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadRunDetail } from "../../serve/detail.ts";
import { resolvePaths } from "../../store/paths.ts";
import { spot, spotEnv } from "../helpers.ts";
import { LEGACY_RUNS, placeLegacyRuns, snapshotDir } from "./fixtures.ts";

const [DONE, REVIEWING] = LEGACY_RUNS;

type Summary = { runId: string; origin: string; status: string; caller: string; profile: string };

Deno.test("spot list and spot inspect show the original's runs, marked, and refuse to drive them", async () => {
  const env = await spotEnv();
  const runsDir = join(env.stateDir, "runs");
  await placeLegacyRuns(runsDir);
  const before = await Promise.all(LEGACY_RUNS.map((id) => snapshotDir(join(runsDir, id))));

  const list = await spot(env, env.dir, "list");
  assert.equal(list.code, 0, list.stderr);
  assert.equal(list.stderr, "");
  const runs = list.json.runs as Summary[];
  // Newest first, as every `spot list` is.
  assert.deepEqual(runs.map((r) => [r.runId, r.origin, r.status]), [
    [REVIEWING, "pi-worker", "reviewing"],
    [DONE, "pi-worker", "integrated"],
  ]);
  assert.equal(runs.find((r) => r.runId === DONE)?.caller, "codex");
  const running = await spot(env, env.dir, "list", "--running");
  assert.deepEqual((running.json.runs as Summary[]).map((r) => r.runId), [REVIEWING]);

  const inspect = await spot(env, env.dir, "inspect", "--id", DONE);
  assert.equal(inspect.code, 0, inspect.stderr);
  assert.equal(inspect.json.origin, "pi-worker");
  const state = inspect.json.state as { status: string; workerDurationMs: number; diffSha256: string };
  assert.deepEqual([state.status, state.workerDurationMs, state.diffSha256], [
    "integrated",
    474000,
    "3".repeat(64),
  ]);
  assert.deepEqual(inspect.json.workerUsage, {
    usage: { input: 5200, output: 830, cacheRead: 1200, cacheWrite: 0 },
    costUsd: 0.0031,
    attempts: 0,
  });
  assert.equal(
    (inspect.json.task as { goal: string }).goal,
    "Fix add() so that it returns the sum of its arguments",
  );
  assert.equal((inspect.json.verification as { passed: boolean }).passed, true);
  assert.equal((inspect.json.review as { verdict: string }).verdict, "approve");

  for (
    const args of [["verify"], ["approve", "--review", "r.json", "--message", "m"], ["cleanup"], ["diff"]]
  ) {
    const r = await spot(env, env.dir, args[0], "--id", REVIEWING, ...args.slice(1));
    assert.equal(r.code, 6, `${args[0]}: ${r.stderr}`);
    assert.equal((r.json.error as { code: string }).code, "RUN_READ_ONLY", args[0]);
  }
  const after = await Promise.all(LEGACY_RUNS.map((id) => snapshotDir(join(runsDir, id))));
  assert.deepEqual(after, before, "spot changed a run directory the original wrote");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("the dashboard lists the original's runs, and its detail reads their old file and field names", async () => {
  const env = await spotEnv();
  await placeLegacyRuns(join(env.stateDir, "runs"));
  const output = join(env.dir, "dashboard.html");
  const r = await spot(env, env.dir, "dashboard", "--output", output);
  assert.equal(r.code, 0, r.stderr);
  const html = await Deno.readTextFile(output);
  for (const id of LEGACY_RUNS) assert.ok(html.includes(id), `${id} is not on the dashboard`);
  assert.equal(html.split("from pi-worker, read-only").length - 1, 2);

  const paths = resolvePaths((name) => env.env[name]);
  const done = await loadRunDetail(paths, DONE);
  assert.deepEqual(done?.checks, [{
    argv: "npm test",
    passed: true,
    exitCode: 0,
    timedOut: false,
    durationMs: 2100,
  }]);
  const reviewing = await loadRunDetail(paths, REVIEWING);
  assert.equal(reviewing?.state.origin, "pi-worker");
  assert.equal(reviewing?.selfReview?.criteria[0].status, "met");
  assert.ok(
    reviewing?.logTail.some((l) => l.includes("Added the section.")),
    "no worker.log: pi-events.jsonl",
  );
  await Deno.remove(env.dir, { recursive: true });
});
