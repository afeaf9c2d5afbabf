/**
 * The small loop's set-up, shared by bench/small_loop_bench.ts (the CLI) and bench/mcp_loop_bench.ts (one
 * `spot mcp`): a 3-file repo, an instant replay worker, one `node -e` check, a config with self-review off,
 * and the git floor (bench/git_floor.sh) on the same repo.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnProcess } from "../sandbox/spawn.ts";
import { makeRepo, sh, writeEpisode, writeJson } from "../tests/helpers.ts";

const here = dirname(fileURLToPath(import.meta.url));
export const CLI = join(here, "..", "cli.ts");
export const DENO_CONFIG = join(here, "..", "deno.json");

export type Verb = "prepare" | "run" | "verify" | "approve" | "integrate";
export const VERBS: Verb[] = ["prepare", "run", "verify", "approve", "integrate"];

export interface SmallFixture {
  dir: string;
  repo: string;
  episode: string;
  taskFile: string;
  env: Record<string, string>;
}

export async function smallFixture(prefix: string): Promise<SmallFixture> {
  const dir = await Deno.makeTempDir({ prefix });
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
  return { dir, repo, episode, taskFile, env };
}

/** The review a loop approves with, bound to the verified diff. */
export function approval(diffSha256: unknown): Record<string, unknown> {
  return {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "bench",
  };
}

/** Drops the loop's integrated commit, outside any timing. */
export async function undoIntegration(f: SmallFixture): Promise<void> {
  await sh(f.repo, "git", "reset", "-q", "--hard", "HEAD^");
}

/** One run of the git floor (ms), its commit dropped afterwards. */
export async function floorOnce(f: SmallFixture, i: number): Promise<number> {
  const started = performance.now();
  const r = await spawnProcess(
    [join(here, "git_floor.sh"), f.repo, join(f.dir, `floor-wt-${i}`), `floor-${i}`],
    { env: f.env },
  );
  if (r.exitCode !== 0) throw new Error(`git floor failed: ${r.stderr}`);
  const elapsed = performance.now() - started;
  await undoIntegration(f);
  return elapsed;
}

/** One `spot <args>` as a CLI process in the fixture's repo: its wall time (Deno start-up included) and JSON. */
export async function cliVerb(
  f: SmallFixture,
  args: string[],
  showTimings = false,
): Promise<{ ms: number; out: Record<string, unknown> }> {
  const started = performance.now();
  const r = await spawnProcess(
    [Deno.execPath(), "run", "--no-prompt", "--allow-all", "--config", DENO_CONFIG, CLI, ...args],
    { cwd: f.repo, env: f.env, timeoutMs: 120_000 },
  );
  const ms = performance.now() - started;
  if (r.exitCode !== 0) throw new Error(`spot ${args.join(" ")} exited ${r.exitCode}: ${r.stderr}`);
  if (showTimings) console.log(`spot ${args[0]}: ${r.stderr.trim()}`);
  return { ms, out: JSON.parse(r.stdout) };
}

export interface LoopTimes {
  total: number;
  verbs: Record<Verb, number>;
  runId: string;
}

/** `spot prepare` of the fixture's task with the instant replay worker, under bwrap. */
export function prepareArgs(f: SmallFixture): string[] {
  return ["prepare", "--task", f.taskFile, "--profile", "replay", "--model", f.episode, "--sandbox", "bwrap"];
}

/** The small loop as five CLI processes; the integrated commit dropped afterwards, outside the timing. */
export async function cliLoop(f: SmallFixture, showTimings = false): Promise<LoopTimes> {
  const spot = (args: string[]) => cliVerb(f, args, showTimings);
  const verbs = {} as Record<Verb, number>;
  const prep = await spot(prepareArgs(f));
  verbs.prepare = prep.ms;
  const runId = String(prep.out.runId);
  verbs.run = (await spot(["run", "--id", runId])).ms;
  const verify = await spot(["verify", "--id", runId]);
  verbs.verify = verify.ms;
  if (verify.out.passed !== true) {
    throw new Error(`small loop: verification did not pass: ${JSON.stringify(verify.out)}`);
  }
  const review = join(f.dir, `review-${runId}.json`);
  await writeJson(review, approval(verify.out.diffSha256));
  verbs.approve = (await spot(["approve", "--id", runId, "--review", review, "--message", "bench"])).ms;
  verbs.integrate = (await spot(["integrate", "--id", runId])).ms;
  await undoIntegration(f);
  return { total: VERBS.reduce((sum, v) => sum + verbs[v], 0), verbs, runId };
}
