/**
 * Task graphs (`spot job`, docs/jobs.md) against doing the same work by hand, through the CLI, under bwrap, with
 * the built-in replay worker. Each side of a comparison runs in its own fresh state directory on the same
 * repository, which is put back (worktrees and branches removed) after each side, outside the timing; the
 * sides alternate which goes first from round to round, and the ratios are of medians.
 *
 * - `BENCH graph_overhead ratio=<x> target=1.1`: `spot job init` + `start` + `wait` of a job of 8 independent
 *   builder tasks whose workers finish at once, with `config.limits.concurrency` 1, over the same 8 tasks done
 *   by hand as `spot prepare` + `spot run` + `spot verify` each, one after the other.
 *
 *   What "the same work" is: for a builder the coordinator prepares a run from a contract it writes, runs the
 *   worker's turn, checks the diff against the task's ownership, reads the worker's result and runs `spot
 *   verify` (the scans and the task's checks; a builder with `noChecksReason` gets the check `true`); the run
 *   then waits at `reviewing` for integration. By hand, the contract carries the same `allowedPaths` (the scope
 *   scan of `verify` is the ownership check) and the same check, and `prepare`, `run`, `verify` leave the run at
 *   the same state with the same verdict. The worker's final text, which the coordinator parses as the task's
 *   result, is in the run's `events.jsonl` for a parent to read as a file: no verb is counted for it (a `spot
 *   inspect` per task would only make doing it by hand slower). Writing the job file and the 8 contracts is
 *   outside the timing on both sides.
 *
 *   Why concurrency 1: by hand, a parent runs the tasks one after the other. A graph that ran them 3 at a time
 *   (the default) would hide what the coordinator costs behind what parallelism saves, and on 2 cores that
 *   saving depends on the machine's load; `graph_parallel` measures parallelism on its own.
 * - `BENCH graph_parallel ratio=<x> target=0.35`: the same kind of job with 8 tasks whose workers sleep
 *   SLEEP_MS (the replay `sleep` op) before writing, with concurrency 4 over concurrency 1. The ideal is 0.25;
 *   each task's own machinery (~0.9 CPU-seconds: prepare, the steps, verify) cannot overlap on 2 cores, so
 *   the sleep is long enough (4 s) that the ratio measures the coordinator's parallelism, not the cores.
 *
 * Builders, because they do the most per task (a read-only task skips `verify`) and are what a job runs in
 * parallel. The config allows 16 runs so other runs on the machine never hold the job back, and every job gets
 * a fresh state directory.
 *
 * `SPOT_TIMINGS=1` prints the by-hand verbs' tables of the warm-up; the detail of each line splits the graph's
 * time into `job init`, the coordinator's start-up (`lead`), its task loop and the end of `job wait` (`tail`),
 * from the job's events. `GRAPH_BENCH_ROUNDS` (5) and `GRAPH_BENCH_SLEEP_MS` (4000) change the run.
 */
import { dirname, fromFileUrl, join } from "../base/path.ts";
import { spawnProcess } from "../sandbox/spawn.ts";
import { makeRepo, sh, writeEpisode, writeJson } from "../tests/helpers.ts";
import { benchRatio, finishBench, median } from "./bench_line.ts";
import { type JobEvent, timeline } from "./graph_timeline.ts";

const ROUNDS = Number(Deno.env.get("GRAPH_BENCH_ROUNDS") ?? 5);
const TASKS = 8;
const SLEEP_MS = Number(Deno.env.get("GRAPH_BENCH_SLEEP_MS") ?? 4000);
const OVERHEAD_TARGET = 1.1;
const PARALLEL_TARGET = 0.35;
const SHOW_TIMINGS = Deno.env.get("SPOT_TIMINGS") === "1";
const here = dirname(fromFileUrl(import.meta.url));
const cli = join(here, "..", "cli.ts");
const config = join(here, "..", "deno.json");

const dir = await Deno.makeTempDir({ prefix: "spot-graph-bench-" });
const ids = Array.from({ length: TASKS }, (_, i) => `t${i}`);
const repo = await makeRepo(
  Object.fromEntries([
    ["README.md", "# graph bench\n"],
    ...ids.map((id) => [`${id}/f.ts`, "export const v = 1;\n"]),
  ]),
  dir,
);
const configFile = join(dir, "config.json");
await writeJson(configFile, { maxConcurrentRuns: 16 });
const baseEnv: Record<string, string> = {
  ...Deno.env.toObject(),
  PI_WORKER_CONFIG: configFile,
  PI_WORKER_CACHE_DIR: join(dir, "cache"),
  NO_COLOR: "1",
};
delete baseEnv.SPOT_TIMINGS;

/** One replay episode per task: optionally sleep, write the task's file, report the result a job reads. */
async function episodes(kind: string, sleepMs: number): Promise<string[]> {
  return await Promise.all(ids.map(async (id) => {
    const file = join(dir, `${kind}-${id}.jsonl`);
    const result = { status: "succeeded", summary: `${id} done`, changedFiles: [`${id}/f.ts`] };
    await writeEpisode(file, [
      ...(sleepMs > 0 ? [{ op: "sleep", ms: sleepMs }] : []),
      { op: "write", path: `${id}/f.ts`, content: `export const v = 2; // ${id}\n` },
      { op: "say", text: "Done.\n```json\n" + JSON.stringify(result) + "\n```" },
      { op: "usage", input: 10, output: 5, cacheRead: 0, cacheWrite: 0, costUsd: 0 },
    ]);
    return file;
  }));
}

const instant = await episodes("instant", 0);
const sleeping = await episodes("sleeping", SLEEP_MS);

async function jobFile(name: string, eps: string[], concurrency: number): Promise<string> {
  const file = join(dir, `job-${name}.json`);
  await writeJson(file, {
    cwd: repo,
    approval: "the graph bench",
    allowWrites: true,
    noIntegratedChecksReason: "a benchmark: nothing is integrated",
    config: { limits: { concurrency }, sandbox: "bwrap" },
    tasks: ids.map((id, i) => ({
      id,
      role: "builder",
      task: `Set v in ${id}/f.ts to 2`,
      acceptance: [`${id}/f.ts sets v to 2`],
      ownership: [id],
      noChecksReason: "a benchmark",
      model: { profile: "replay", id: eps[i] },
    })),
  });
  return file;
}

/** The contract the coordinator writes for each builder (graphs/task_run.ts), for the by-hand side. */
const contracts = await Promise.all(ids.map(async (id) => {
  const file = join(dir, `task-${id}.json`);
  await writeJson(file, {
    schemaVersion: 1,
    goal: `builder task "${id}": Set v in ${id}/f.ts to 2`,
    allowedPaths: [id, `${id}/**`],
    acceptanceCriteria: [`${id}/f.ts sets v to 2`],
    verification: [{ argv: ["true"], timeoutSeconds: 10 }],
    risk: "low",
  });
  return file;
}));

let stateDirs = 0;
/** A fresh state directory: a builder's run holds a run slot until integration, so rounds must not share. */
function freshEnv(): Record<string, string> {
  return { ...baseEnv, PI_WORKER_STATE_DIR: join(dir, `state-${stateDirs++}`) };
}

async function spot(env: Record<string, string>, args: string[]) {
  const started = performance.now();
  const argv = [Deno.execPath(), ...["run", "--no-prompt", "--allow-all", "--config", config, cli], ...args];
  const r = await spawnProcess(argv, {
    cwd: repo,
    env,
    timeoutMs: 300_000,
  });
  const ms = performance.now() - started;
  if (r.exitCode !== 0) {
    throw new Error(`spot ${args.join(" ")} exited ${r.exitCode}: ${r.stdout}${r.stderr}`);
  }
  if (SHOW_TIMINGS && env.SPOT_TIMINGS === "1") {
    console.log(`spot ${args.slice(0, 2).join(" ")}: ${r.stderr.trim()}`);
  }
  return { ms, out: JSON.parse(r.stdout) as Record<string, unknown> };
}

/** Puts the repository back as it was: every worktree and branch the side made is removed. */
async function reset(): Promise<void> {
  const list = await sh(repo, "git", "worktree", "list", "--porcelain");
  // The first entry is the repository's own checkout.
  const added = [...list.matchAll(/^worktree (.+)$/gm)].slice(1).map((m) => m[1]);
  for (const path of added) await sh(repo, "git", "worktree", "remove", "--force", path);
  const branches = (await sh(repo, "git", "branch", "--format=%(refname:short)")).split("\n");
  for (const b of branches.filter((b) => b && b !== "main")) await sh(repo, "git", "branch", "-D", b);
}

/** The coordinator is detached: wait for it to exit so it never overlaps the next measurement. */
async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await Deno.stat(`/proc/${pid}`);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`coordinator ${pid} did not exit`);
}

interface GraphTimes {
  total: number;
  init: number;
  /** From \`job start\` being called to the first task's start (the coordinator's own start-up). */
  lead: number;
  /** From the first task's start to the last task's end. */
  loop: number;
  /** From the last task's end to \`job wait\` returning. */
  tail: number;
  /** The longest gap from a task's end to the next task's start. */
  handoff: number;
}

async function graphOnce(file: string): Promise<GraphTimes> {
  const env = freshEnv();
  const init = await spot(env, ["job", "init", file]);
  const jobId = String(init.out.jobId);
  const startedAt = Date.now();
  const start = await spot(env, ["job", "start", jobId]);
  const wait = await spot(env, ["job", "wait", jobId, "--timeout-ms", "600000"]);
  const waitedAt = Date.now();
  if (wait.out.status !== "succeeded") throw new Error(`job ${jobId}: ${JSON.stringify(wait.out)}`);
  await gone(Number(start.out.pid));
  const events = (await Deno.readTextFile(join(String(init.out.jobDir), "events.jsonl"))).trim().split("\n")
    .map((l) => JSON.parse(l) as JobEvent);
  const t = timeline(events);
  await reset();
  return {
    total: init.ms + start.ms + wait.ms,
    init: init.ms,
    lead: t.firstStart - startedAt,
    loop: t.lastEnd - t.firstStart,
    tail: waitedAt - t.lastEnd,
    handoff: t.handoff,
  };
}

type Verb = "prepare" | "run" | "verify";
async function byHandOnce(timings = false): Promise<{ total: number; verbs: Record<Verb, number> }> {
  const env = { ...freshEnv(), ...(timings ? { SPOT_TIMINGS: "1" } : {}) };
  const verbs: Record<Verb, number> = { prepare: 0, run: 0, verify: 0 };
  for (let i = 0; i < TASKS; i++) {
    const prep = await spot(env, [
      ...["prepare", "--task", contracts[i], "--profile", "replay", "--model", instant[i]],
      ...["--sandbox", "bwrap"],
    ]);
    verbs.prepare += prep.ms;
    const runId = String(prep.out.runId);
    verbs.run += (await spot(env, ["run", "--id", runId])).ms;
    const verify = await spot(env, ["verify", "--id", runId]);
    verbs.verify += verify.ms;
    if (verify.out.passed !== true) throw new Error(`by hand ${runId}: ${JSON.stringify(verify.out)}`);
  }
  await reset();
  return { total: verbs.prepare + verbs.run + verbs.verify, verbs };
}

const overheadJob = await jobFile("overhead", instant, 1);
const serialJob = await jobFile("serial", sleeping, 1);
const parallelJob = await jobFile("parallel", sleeping, 4);

// Warm-up: Deno's module cache, the bwrap probe's cache and git for both sides.
await byHandOnce(SHOW_TIMINGS);
await graphOnce(overheadJob);

const graphs: GraphTimes[] = [];
const hands: { total: number; verbs: Record<Verb, number> }[] = [];
for (let i = 0; i < ROUNDS; i++) {
  if (i % 2 === 0) {
    graphs.push(await graphOnce(overheadJob));
    hands.push(await byHandOnce());
  } else {
    hands.push(await byHandOnce());
    graphs.push(await graphOnce(overheadJob));
  }
}
const g = (k: keyof GraphTimes) => median(graphs.map((x) => x[k])).toFixed(0);
const h = (k: Verb) => median(hands.map((x) => x.verbs[k])).toFixed(0);
// Rounds alternate which side goes first: round i of one is paired with round i of the other.
benchRatio("graph_overhead", graphs.map((x) => x.total), hands.map((x) => x.total), {
  target: OVERHEAD_TARGET,
  names: ["graph", "by_hand"],
  paired: true,
  detail: `init_ms=${g("init")} lead_ms=${g("lead")} task_loop_ms=${g("loop")} tail_ms=${g("tail")} ` +
    `handoff_max_ms=${g("handoff")} ` +
    `prepare_ms=${h("prepare")} run_ms=${h("run")} verify_ms=${h("verify")} ` +
    `tasks=${TASKS} concurrency=1 sandbox=bwrap`,
});

const serial: GraphTimes[] = [];
const parallel: GraphTimes[] = [];
for (let i = 0; i < ROUNDS; i++) {
  if (i % 2 === 0) {
    serial.push(await graphOnce(serialJob));
    parallel.push(await graphOnce(parallelJob));
  } else {
    parallel.push(await graphOnce(parallelJob));
    serial.push(await graphOnce(serialJob));
  }
}
benchRatio("graph_parallel", parallel.map((x) => x.total), serial.map((x) => x.total), {
  target: PARALLEL_TARGET,
  names: ["concurrency4", "concurrency1"],
  paired: true,
  detail: `concurrency4_loop_ms=${median(parallel.map((x) => x.loop)).toFixed(0)} ` +
    `concurrency1_loop_ms=${median(serial.map((x) => x.loop)).toFixed(0)} ` +
    `handoff_max_ms=${Math.max(...[...serial, ...parallel].map((x) => x.handoff)).toFixed(0)} ` +
    `tasks=${TASKS} sleep_ms=${SLEEP_MS} sandbox=bwrap`,
});
await Deno.remove(dir, { recursive: true });
finishBench();
