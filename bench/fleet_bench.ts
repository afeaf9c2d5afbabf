/**
 * The fleet (docs/fleet.md) against one machine, on loopback: a job of twelve sleep-bound replay builders (each
 * sleeps SLEEP_MS, writes its file, passes its check), timed from `spot job start` to `spot job wait`'s answer,
 * each side in fresh state directories, with sandbox none (the sandbox's cost is sandbox_bench's).
 *
 * - `BENCH fleet_overhead ratio=<one nats executor / local backend> target=1.15`: the job with the queue local
 *   (the coordinator runs the tasks itself, `limits.concurrency` 1) over the same job sent to one executor of
 *   capacity 1. What the fleet adds per task: the repository's bundle, the executor's own prepare and the import
 *   on the origin; the origin's prepares overlap the executor's work.
 * - `BENCH fleet_speedup ratio=<three executors / one executor> target=0.45`: the same job on three executors
 *   of capacity 1 each (three "machines": their own state, cache, config and HOME) over one. The ideal is 0.33;
 *   on this 2-core machine the three executors' machinery shares the cores, so the sleep is long enough (5 s) for
 *   the ratio to measure the fleet's parallelism rather than the cores.
 *
 * `FLEET_BENCH_SLEEP_MS` (5000) and `FLEET_BENCH_ROUNDS` (1) change the run; the ratios are of medians, each
 * judged with its spread (bench/bench_line.ts).
 */
import { machine, type RunningExecutor, startExecutor, stopExecutor } from "../tests/fleet/fleet_helpers.ts";
import { createJob, jobRepo, startJob, waitJob } from "../tests/fleet/fleet_job.ts";
import { startNats } from "../tests/fleet/nats_server.ts";
import { benchRatio, finishBench } from "./bench_line.ts";

const TASKS = 12;
const SLEEP_MS = Number(Deno.env.get("FLEET_BENCH_SLEEP_MS") ?? 5000);
const ROUNDS = Number(Deno.env.get("FLEET_BENCH_ROUNDS") ?? 1);

/** One job's wall time with `executors` executors (0: the local backend). */
async function side(url: string, executors: number): Promise<number> {
  const queue = executors ? {} : { queue: { backend: "local" } };
  const origin = await machine("origin", url, { maxConcurrentRuns: 16, ...queue });
  const running: RunningExecutor[] = [];
  try {
    for (let i = 1; i <= executors; i++) {
      running.push(await startExecutor(await machine(`e${i}`, url), ["--capacity", "1"]));
    }
    const repo = await jobRepo(origin, TASKS);
    const jobId = await createJob(origin, repo, {
      builders: TASKS,
      sleepMs: { all: SLEEP_MS },
      reviewer: false,
      concurrency: executors ? TASKS : 1,
    });
    const t0 = performance.now();
    await startJob(origin, repo, jobId);
    const done = await waitJob(origin, repo, jobId, 1_800_000);
    const ms = performance.now() - t0;
    if (done.code !== 0) throw new Error(`the job failed: ${done.stdout}${done.stderr}`);
    return ms;
  } finally {
    for (const e of running) await stopExecutor(e, "SIGINT");
    await Deno.remove(origin.dir, { recursive: true }).catch(() => {});
  }
}

const nats = await startNats();
try {
  const walls = { local: [] as number[], one: [] as number[], three: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    // The sides take turns going first, so a machine slowing down over the run weighs on each alike.
    const order = r % 2 ? (["three", "one", "local"] as const) : (["local", "one", "three"] as const);
    for (const s of order) walls[s].push(await side(nats.url, s === "local" ? 0 : s === "one" ? 1 : 3));
  }
  // Round i of each side ran beside round i of the others: the spread is taken pair by pair.
  benchRatio("fleet_overhead", walls.one, walls.local, {
    target: 1.15,
    names: ["one_executor", "local"],
    paired: true,
    detail: `tasks=${TASKS}`,
  });
  benchRatio("fleet_speedup", walls.three, walls.one, {
    target: 0.45,
    names: ["three", "one"],
    paired: true,
    detail: `sleep_ms=${SLEEP_MS}`,
  });
} finally {
  await nats.stop();
}
finishBench();
