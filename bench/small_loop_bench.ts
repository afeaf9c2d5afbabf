/**
 * The loop a parent agent pays for on a small task: `spot prepare`, `run`, `verify`, `approve`, `integrate`
 * as separate CLI processes (Deno start-up included), under bwrap, on a 3-file repo with an instant replay
 * worker and one `node -e` check, against the git floor (bench/git_floor.sh) on the same repo, interleaved.
 * Also `spot inspect` on an existing run against `deno run` of an empty script (the verb start-up cost).
 * Prints `BENCH small_loop_vs_git_floor ratio=<x> target=4.5` and `BENCH verb_startup ratio=<x> target=1.5`,
 * with each verb's median so the table in docs/performance.md can be kept.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnProcess } from "../sandbox/spawn.ts";
import { makeRepo, sh, writeEpisode, writeJson } from "../tests/helpers.ts";
import { benchRatio, finishBench, median, range } from "./bench_line.ts";

const ROUNDS = 5;
/** Start-ups are short and noisy: more rounds, still interleaved. */
const STARTUP_ROUNDS = 21;
const LOOP_TARGET = 4.5;
const STARTUP_TARGET = 1.5;
/** SPOT_TIMINGS=1 prints each verb's table (docs/performance.md) for the warm-up loop. */
const SHOW_TIMINGS = Deno.env.get("SPOT_TIMINGS") === "1";
const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, "..", "cli.ts");
const config = join(here, "..", "deno.json");

const dir = await Deno.makeTempDir({ prefix: "spot-small-bench-" });
const repo = await makeRepo({
  "src/sum.js": "export const sum = (a, b) => a - b;\n",
  "test/sum.test.js": "// checked by the contract's node -e\n",
  "README.md": "# small\n",
}, dir);
const episode = join(dir, "instant.jsonl");
await writeEpisode(episode, [{
  op: "write",
  path: "src/sum.js",
  content: "export const sum = (a, b) => a + b;\n",
}]);
const taskFile = join(dir, "task.json");
await writeJson(taskFile, {
  schemaVersion: 1,
  goal: "Make sum add",
  allowedPaths: ["src/**"],
  acceptanceCriteria: ["sum adds"],
  verification: [{
    argv: ["node", "-e", "import('./src/sum.js').then((m) => process.exit(m.sum(2, 3) === 5 ? 0 : 1))"],
    timeoutSeconds: 30,
  }],
  risk: "low",
});
const configFile = join(dir, "config.json");
await writeJson(configFile, { selfReview: { enabled: false } });
const env: Record<string, string> = {
  ...Deno.env.toObject(),
  PI_WORKER_CONFIG: configFile,
  PI_WORKER_STATE_DIR: join(dir, "state"),
  PI_WORKER_CACHE_DIR: join(dir, "cache"),
  NO_COLOR: "1",
};

type Verb = "prepare" | "run" | "verify" | "approve" | "integrate";
const VERBS: Verb[] = ["prepare", "run", "verify", "approve", "integrate"];

async function spot(args: string[]): Promise<{ ms: number; out: Record<string, unknown> }> {
  const started = performance.now();
  const r = await spawnProcess([
    Deno.execPath(),
    "run",
    "--no-prompt",
    "--allow-all",
    "--config",
    config,
    cli,
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
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: verify.out.diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "bench",
  });
  verbs.approve = (await spot(["approve", "--id", runId, "--review", review, "--message", "bench"])).ms;
  verbs.integrate = (await spot(["integrate", "--id", runId])).ms;
  const total = VERBS.reduce((sum, v) => sum + verbs[v], 0);
  await sh(repo, "git", "reset", "-q", "--hard", "HEAD^");
  return { total, verbs, runId };
}

async function floorOnce(i: number): Promise<number> {
  const started = performance.now();
  const r = await spawnProcess([join(here, "git_floor.sh"), repo, join(dir, `floor-wt-${i}`), `floor-${i}`], {
    env,
  });
  if (r.exitCode !== 0) throw new Error(`git floor failed: ${r.stderr}`);
  const elapsed = performance.now() - started;
  await sh(repo, "git", "reset", "-q", "--hard", "HEAD^");
  return elapsed;
}

async function emptyOnce(empty: string): Promise<number> {
  const started = performance.now();
  const r = await spawnProcess([
    Deno.execPath(),
    "run",
    "--no-prompt",
    "--allow-all",
    "--config",
    config,
    empty,
  ], { env });
  if (r.exitCode !== 0) throw new Error(`empty script failed: ${r.stderr}`);
  return performance.now() - started;
}

const empty = join(dir, "empty.ts");
await Deno.writeTextFile(empty, "\n");
const warm = await loopOnce(); // warms Deno's module cache and git's object store for both sides
await floorOnce(-1);
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
  floors.push(await floorOnce(i));
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
