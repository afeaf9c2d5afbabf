/**
 * Admission counts slot holders among the runs that have not ended (`RunStore.live()`), not among every run
 * a user keeps: a state dir with thousands of kept runs made every `prepare` read each one's state.json
 * (docs/performance.md). The list is written by `save()`, before a state that has not ended and after one
 * that has, and a state dir from before it is listed whole once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtureState, writeFixtureRun } from "../fixture_runs.ts";
import { resolvePaths, type SpotPaths } from "../../store/paths.ts";
import { RunStore } from "../../store/run_store.ts";

async function scene(): Promise<{ root: string; paths: SpotPaths; store: RunStore }> {
  const root = await Deno.makeTempDir({ prefix: "spot-live-" });
  const paths = resolvePaths((name) => name === "PI_WORKER_STATE_DIR" ? join(root, "state") : root);
  await Deno.mkdir(paths.runsDir, { recursive: true });
  return { root, paths, store: new RunStore(paths) };
}

const ids = (states: { runId: string }[]) => states.map((s) => s.runId);

/** A save, into the run's directory (admission makes it before the first one). */
async function save(store: RunStore, state: ReturnType<typeof fixtureState>): Promise<void> {
  await Deno.mkdir(store.dir(state.runId), { recursive: true });
  await store.save(state);
}

Deno.test("live() lists the runs that have not ended, and follows runs that end and come back", async () => {
  const { root, store } = await scene();
  try {
    await save(store, fixtureState("run-open", { status: "running" }, "2025-01-01T00:00:01.000Z"));
    await save(store, fixtureState("run-desk", { status: "reviewing" }, "2025-01-01T00:00:02.000Z"));
    await save(store, fixtureState("run-done", { status: "integrated" }, "2025-01-01T00:00:03.000Z"));
    assert.deepEqual(ids(await store.live()), ["run-open", "run-desk"]);
    // A run that ends leaves the list; one brought back (recover) joins it again.
    await save(store, fixtureState("run-open", { status: "failed" }, "2025-01-01T00:00:01.000Z"));
    assert.deepEqual(ids(await store.live()), ["run-desk"]);
    await save(store, fixtureState("run-open", { status: "prepared" }, "2025-01-01T00:00:01.000Z"));
    assert.deepEqual(ids(await store.live()), ["run-open", "run-desk"]);
    assert.deepEqual(ids(await store.all()), ["run-open", "run-desk", "run-done"], "all() reads every run");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a state dir from before the list is listed whole once; stale and orphaned entries are dropped", async () => {
  const { root, paths, store } = await scene();
  try {
    // Written as an older spot did: state.json only, no live/ entry.
    await writeFixtureRun(
      paths,
      fixtureState("run-old-open", { status: "verifying" }, "2025-01-01T00:00:01.000Z"),
    );
    await writeFixtureRun(
      paths,
      fixtureState("run-old-done", { status: "integrated" }, "2025-01-01T00:00:02.000Z"),
    );
    // A save of another run makes live/ exist before the old runs are listed: they still count.
    await save(store, fixtureState("run-new", { status: "prepared" }, "2025-01-01T00:00:03.000Z"));
    assert.deepEqual(ids(await store.live()), ["run-old-open", "run-new"]);
    // A crash after an ended state was written, before its entry went: the entry is read, skipped and dropped.
    const live = join(paths.stateRoot, "live");
    await Deno.writeTextFile(join(live, "run-old-done"), "");
    // A run directory removed by hand: its entry goes too.
    await Deno.remove(join(paths.runsDir, "run-new"), { recursive: true });
    assert.deepEqual(ids(await store.live()), ["run-old-open"]);
    const entries = [...Deno.readDirSync(live)].map((e) => e.name).filter((n) => !n.startsWith(".")).sort();
    assert.deepEqual(entries, ["run-old-open"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
