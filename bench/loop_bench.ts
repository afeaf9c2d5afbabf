/**
 * `deno task bench`: one spot loop (prepare → run → verify → approve →
 * integrate → cleanup, in process, with the replay worker and an instant
 * episode) against the git floor (bench/git_floor.sh, the same git commands
 * with nothing else), side by side on one 2,000-file repo so machine noise
 * cancels. Prints `BENCH loop_vs_git_floor ratio=<x> target=1.2`.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnProcess } from "../sandbox/spawn.ts";
import { createContext } from "../config/context.ts";
import { approveRun, cleanupRun, integrateRun, prepare, runWorker, verifyRun } from "../verbs/mod.ts";
import { makeRepo, sh, writeEpisode, writeJson } from "../tests/helpers.ts";
import { benchRatio, finishBench } from "./bench_line.ts";

const FILES = 2_000;
/** Rounds alternate loop and floor; the median of each is compared. */
const ROUNDS = 5;
const TARGET = 1.2;
const here = dirname(fileURLToPath(import.meta.url));

const dir = await Deno.makeTempDir({ prefix: "spot-bench-" });
const files: Record<string, string> = {};
for (let i = 0; i < FILES; i++) {
  files[`src/m${Math.floor(i / 100)}/f${i}.ts`] = `export const v${i} = ${i};\n`;
}
const repo = await makeRepo(files, dir);
const episode = join(dir, "instant.jsonl");
await writeEpisode(episode, [{ op: "write", path: "src/answer.ts", content: "export const answer = 42;\n" }]);
const taskFile = join(dir, "task.json");
await writeJson(taskFile, {
  schemaVersion: 1,
  goal: "Add src/answer.ts exporting the answer",
  allowedPaths: ["src/**"],
  acceptanceCriteria: ["src/answer.ts exports answer"],
  verification: [{ argv: ["true"], timeoutSeconds: 30 }],
  risk: "low",
});
const configFile = join(dir, "config.json");
await writeJson(configFile, { selfReview: { enabled: false } });
const env: Record<string, string> = {
  ...Deno.env.toObject(),
  PI_WORKER_CONFIG: configFile,
  PI_WORKER_STATE_DIR: join(dir, "state"),
  PI_WORKER_CACHE_DIR: join(dir, "cache"),
};

async function loopOnce(): Promise<number> {
  const started = performance.now();
  const ctx = await createContext({ env: (n) => env[n], cwd: repo });
  const { runId } = await prepare(ctx, { taskFile, profile: "replay", model: episode });
  await runWorker(ctx, runId);
  const { diffSha256, passed } = await verifyRun(ctx, runId);
  if (!passed) throw new Error("bench loop: verification did not pass");
  const review = join(dir, `review-${runId}.json`);
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "bench",
  });
  await approveRun(ctx, runId, review, "bench");
  await integrateRun(ctx, runId);
  await Deno.writeTextFile(join(ctx.store.dir(runId), "report.md"), "bench\n");
  await cleanupRun(ctx, runId);
  await sh(repo, "git", "reset", "-q", "--hard", "HEAD^");
  return performance.now() - started;
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

await loopOnce(); // warm caches (Deno's module cache, git's object store) for both sides
await floorOnce(-1);
const loops: number[] = [];
const floors: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  loops.push(await loopOnce());
  floors.push(await floorOnce(i));
}
benchRatio("loop_vs_git_floor", loops, floors, {
  target: TARGET,
  names: ["loop", "floor"],
  paired: true,
  detail: `files=${FILES}`,
});
await Deno.remove(dir, { recursive: true });
finishBench();
