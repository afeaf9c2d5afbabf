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
import {
  approval,
  CLI,
  DENO_CONFIG,
  floorOnce,
  smallFixture,
  undoIntegration,
  type Verb,
  VERBS,
  writeJson,
} from "./small_fixture.ts";
import { benchRatio, finishBench, median, range } from "./bench_line.ts";

const ROUNDS = 5;
/** Start-ups are short and noisy: more rounds, still interleaved. */
const STARTUP_ROUNDS = 21;
const LOOP_TARGET = 4.5;
const STARTUP_TARGET = 1.5;
/** SPOT_TIMINGS=1 prints each verb's table (docs/performance.md) for the warm-up loop. */
const SHOW_TIMINGS = Deno.env.get("SPOT_TIMINGS") === "1";

const fixture = await smallFixture("spot-small-bench-");
const { dir, repo, episode, taskFile, env } = fixture;

async function spot(args: string[]): Promise<{ ms: number; out: Record<string, unknown> }> {
  const started = performance.now();
  const r = await spawnProcess([
    Deno.execPath(),
    "run",
    "--no-prompt",
    "--allow-all",
    "--config",
    DENO_CONFIG,
    CLI,
    ...args,
  ], {
    cwd: repo,
    env,
    timeoutMs: 120_000,
  });
  const ms = performance.now() - started;
  if (r.exitCode !== 0) throw new Error(`spot ${args.join(" ")} exited ${r.exitCode}: ${r.stderr}`);
  if (SHOW_TIMINGS) console.log(`spot ${args[0]}: ${r.stderr.trim()}`);
  return { ms, out: JSON.parse(r.stdout) };
}

async function loopOnce(): Promise<{ total: number; verbs: Record<Verb, number>; runId: string }> {
  const verbs = {} as Record<Verb, number>;
  const prep = await spot([
    "prepare",
    "--task",
    taskFile,
    "--profile",
    "replay",
    "--model",
    episode,
    "--sandbox",
    "bwrap",
  ]);
  verbs.prepare = prep.ms;
  const runId = String(prep.out.runId);
  verbs.run = (await spot(["run", "--id", runId])).ms;
  const verify = await spot(["verify", "--id", runId]);
  verbs.verify = verify.ms;
  if (verify.out.passed !== true) {
    throw new Error(`small loop: verification did not pass: ${JSON.stringify(verify.out)}`);
  }
  const review = join(dir, `review-${runId}.json`);
  await writeJson(review, approval(verify.out.diffSha256));
  verbs.approve = (await spot(["approve", "--id", runId, "--review", review, "--message", "bench"])).ms;
  verbs.integrate = (await spot(["integrate", "--id", runId])).ms;
  const total = VERBS.reduce((sum, v) => sum + verbs[v], 0);
  await undoIntegration(fixture);
  return { total, verbs, runId };
}

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
