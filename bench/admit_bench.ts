/**
 * `prepare` in a state dir that keeps 3,000 ended runs against one that keeps none: admission counts slot
 * holders among the runs that have not ended (`RunStore.live()`), so a user's history must not slow every
 * prepare (it read each run's state.json: 315 ms against 189 ms at 3,000 runs). Interleaved pair by pair;
 * each prepared run is discarded outside the timing. Prints `BENCH prepare_3000_runs_vs_none ratio=<x>
 * target=1.15`.
 */
import { join } from "node:path";
import { cliVerb, prepareArgs, smallFixture } from "./small_fixture.ts";
import { benchRatio, finishBench } from "./bench_line.ts";

const KEPT = 3_000;
const ROUNDS = 7;
const TARGET = 1.15;

const f = await smallFixture("spot-admit-bench-");

/** `spot <args>` in the fixture, its state in `stateDir`. */
const spot = (stateDir: string, args: string[]) =>
  cliVerb({ ...f, env: { ...f.env, PI_WORKER_STATE_DIR: stateDir } }, args);

/** A state dir with `n` runs that ended, each state.json about as large as a real one. */
async function keptRuns(n: number): Promise<string> {
  const state = join(f.dir, `state-${n}`);
  await Deno.mkdir(join(state, "runs"), { recursive: true });
  for (let i = 0; i < n; i++) {
    const runId = `run-20250101-000000-${i.toString(16).padStart(6, "0")}`;
    await Deno.mkdir(join(state, "runs", runId));
    await Deno.writeTextFile(
      join(state, "runs", runId, "state.json"),
      JSON.stringify({
        schemaVersion: 1,
        runId,
        status: "integrated",
        createdAt: "2025-01-01T00:00:00.000Z",
        updatedAt: "2025-01-01T00:00:00.000Z",
        workerUsage: {},
        transitions: [],
        notes: "x".repeat(4_000),
      }),
    );
  }
  return state;
}

async function prepareOnce(stateDir: string): Promise<number> {
  const prep = await spot(stateDir, prepareArgs(f));
  await spot(stateDir, ["discard", "--id", String(prep.out.runId)]);
  return prep.ms;
}

const many = await keptRuns(KEPT);
const none = await keptRuns(0);
// Warms Deno's caches, and lists the kept runs once (a state dir from before live/ is read whole once).
await prepareOnce(many);
await prepareOnce(none);
const withMany: number[] = [];
const withNone: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  withMany.push(await prepareOnce(many));
  withNone.push(await prepareOnce(none));
}
benchRatio("prepare_3000_runs_vs_none", withMany, withNone, {
  target: TARGET,
  names: ["kept_3000", "kept_none"],
  paired: true,
});
await Deno.remove(f.dir, { recursive: true });
finishBench();
