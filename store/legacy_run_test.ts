import assert from "node:assert/strict";
import { join } from "node:path";
import { isSpotError } from "../errors.ts";
import { fixtureState } from "../tests/fixture_runs.ts";
import { LEGACY_DIR, placeLegacyRuns, snapshotDir } from "../tests/legacy/fixtures.ts";
import { fromPiWorkerState, isPiWorkerState, readPiWorkerUsage } from "./legacy_run.ts";
import { resolvePaths } from "./paths.ts";
import { closeRunIndexes, RunIndex } from "./run_index.ts";
import { RunStore } from "./run_store.ts";

const DONE = "pw-20260714-fix-add";
const REVIEWING = "pw-20260715-readme";
const raw = async (id: string) =>
  JSON.parse(await Deno.readTextFile(join(LEGACY_DIR, "runs", id, "state.json")));

async function legacyHome() {
  const root = await Deno.makeTempDir({ prefix: "spot-legacy-" });
  const paths = resolvePaths((name) => name === "PI_WORKER_STATE_DIR" ? join(root, "state") : root);
  await Deno.mkdir(paths.runsDir, { recursive: true });
  await placeLegacyRuns(paths.runsDir);
  return { root, paths, store: new RunStore(paths) };
}

Deno.test("isPiWorkerState() tells the original's state from spot's and from junk", async () => {
  assert.ok(isPiWorkerState(await raw(DONE), DONE));
  assert.ok(!isPiWorkerState(await raw(DONE), "another-dir"));
  assert.ok(!isPiWorkerState(fixtureState("spot-run")));
  assert.ok(!isPiWorkerState({ runId: "x", status: "running" }));
  assert.ok(!isPiWorkerState(null));
});

Deno.test("fromPiWorkerState() reads the original's names for what spot renamed", async () => {
  const done = fromPiWorkerState(await raw(DONE));
  assert.equal(done.origin, "pi-worker");
  assert.equal(done.status, "integrated");
  assert.equal(done.caller, "codex");
  assert.equal(done.workerDurationMs, 474000);
  assert.equal(done.diffSha256, "3".repeat(64));
  assert.equal(done.baseRevision, "1".repeat(40));
  assert.equal(done.integratedCommit, "4".repeat(40));
  assert.equal(done.sandbox, "none");
  assert.equal(done.transitions.length, 7);
  const reviewing = fromPiWorkerState(await raw(REVIEWING));
  assert.deepEqual(reviewing.recovery, {
    at: "2026-07-15T14:05:00.000Z",
    from: "failed",
    to: "verifying",
    reason: "worktree-changed",
    nextCommand: "pi-worker verify --id pw-20260715-readme",
  });
  assert.equal(reviewing.workerBaseRevision, "6".repeat(40));
});

Deno.test("readPiWorkerUsage() takes metrics.json's pi.usage, else sums pi-events.jsonl", async () => {
  const done = await readPiWorkerUsage(join(LEGACY_DIR, "runs", DONE));
  assert.deepEqual(done, {
    usage: { input: 5200, output: 830, cacheRead: 1200, cacheWrite: 0 },
    costUsd: 0.0031,
  });
  const reviewing = await readPiWorkerUsage(join(LEGACY_DIR, "runs", REVIEWING));
  assert.deepEqual(reviewing.usage, { input: 2000, output: 420, cacheRead: 700, cacheWrite: 0 });
  assert.ok(Math.abs(reviewing.costUsd - 0.001) < 1e-9);
});

Deno.test("the run store shows the original's runs and refuses to lock them", async () => {
  const { root, store } = await legacyHome();
  try {
    const before = await snapshotDir(store.dir(REVIEWING));
    const state = await store.load(REVIEWING);
    assert.equal(state.origin, "pi-worker");
    assert.equal(state.workerUsage.output, 420);
    await assert.rejects(() => store.lock(REVIEWING), (e) => isSpotError(e, "RUN_READ_ONLY"));
    assert.deepEqual((await store.all()).map((s) => [s.runId, s.origin]), [[DONE, "pi-worker"], [
      REVIEWING,
      "pi-worker",
    ]]);
    assert.deepEqual(await snapshotDir(store.dir(REVIEWING)), before);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the run index lists the original's runs with their origin and usage", async () => {
  const { root, paths } = await legacyHome();
  const index = RunIndex.open(paths);
  try {
    await index.refresh();
    const entries = index.page({});
    assert.deepEqual(entries.map((e) => e.summary.runId), [REVIEWING, DONE]);
    const done = entries.find((e) => e.summary.runId === DONE)!;
    assert.equal(done.summary.origin, "pi-worker");
    assert.equal(done.goal, "Fix add() so that it returns the sum of its arguments");
    assert.deepEqual([done.tokensIn, done.tokensOut, done.costUsd], [5200, 830, 0.0031]);
    assert.equal(index.count({ active: true }), 1);
  } finally {
    index.close();
    closeRunIndexes();
    await Deno.remove(root, { recursive: true });
  }
});
