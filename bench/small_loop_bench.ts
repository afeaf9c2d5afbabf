/**
 * The loop a parent agent pays for on a small task: `spot prepare`, `run`, `verify`, `approve`, `integrate`
 * as separate CLI processes (Deno start-up included), under bwrap, on a 3-file repo with an instant replay
 * worker and one `node -e` check, against the git floor (bench/git_floor.sh) on the same repo, interleaved.
 * Also `spot inspect` on an existing run against `deno run` of an empty script (the verb start-up cost).
 * Prints `BENCH small_loop_vs_git_floor ratio=<x> target=4.5` and `BENCH verb_startup ratio=<x> target=1.5`,
 * with each verb's median so the table in docs/performance.md can be kept.
 */
import { join } from "node:path";
import { spawnProcess } from "../sandbox/spawn.ts";
import { cliLoop, cliVerb, DENO_CONFIG, floorOnce, smallFixture, type Verb, VERBS } from "./small_fixture.ts";
import { benchRatio, finishBench, median, range } from "./bench_line.ts";

const ROUNDS = 9;
/** Start-ups are short and noisy: more rounds, still interleaved. */
const STARTUP_ROUNDS = 21;
const LOOP_TARGET = 4.5;
const STARTUP_TARGET = 1.5;
/** SPOT_TIMINGS=1 prints each verb's table (docs/performance.md) for the warm-up loop. */
const SHOW_TIMINGS = Deno.env.get("SPOT_TIMINGS") === "1";

const fixture = await smallFixture("spot-small-bench-");
const { dir, env } = fixture;

const spot = (args: string[]) => cliVerb(fixture, args, SHOW_TIMINGS);
const loopOnce = () => cliLoop(fixture, SHOW_TIMINGS);

async function emptyOnce(empty: string): Promise<number> {
  const started = performance.now();
  const r = await spawnProcess([
    Deno.execPath(),
    "run",
    "--no-prompt",
    "--allow-all",
    "--config",
    DENO_CONFIG,
    empty,
  ], { env });
  if (r.exitCode !== 0) throw new Error(`empty script failed: ${r.stderr}`);
  return performance.now() - started;
}

const empty = join(dir, "empty.ts");
await Deno.writeTextFile(empty, "\n");
const warm = await loopOnce(); // warms Deno's module cache and git's object store for both sides
await floorOnce(fixture, -1);
await emptyOnce(empty);

const loops: number[] = [];
const floors: number[] = [];
const perVerb: Record<Verb, number[]> = { prepare: [], run: [], verify: [], approve: [], integrate: [] };
const inspects: number[] = [];
const empties: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const loop = await loopOnce();
  loops.push(loop.total);
  for (const v of VERBS) perVerb[v].push(loop.verbs[v]);
  floors.push(await floorOnce(fixture, i));
}
for (let i = 0; i < STARTUP_ROUNDS; i++) {
  inspects.push((await spot(["inspect", "--id", warm.runId])).ms);
  empties.push(await emptyOnce(empty));
}
const verbDetail = VERBS.map((v) =>
  `${v}_ms=${median(perVerb[v]).toFixed(0)} ${v}_spread_ms=${range(perVerb[v])}`
)
  .join(" ");
benchRatio("small_loop_vs_git_floor", loops, floors, {
  target: LOOP_TARGET,
  names: ["loop", "floor"],
  paired: true,
  detail: `${verbDetail} sandbox=bwrap files=3`,
});
benchRatio("verb_startup", inspects, empties, {
  target: STARTUP_TARGET,
  names: ["inspect", "empty_deno"],
  paired: true,
});
await Deno.remove(dir, { recursive: true });
finishBench();
