/**
 * A job's own limits through the CLI: its cost budget split among the workers running at once (each stopped
 * when it spends its share, the job cancelled with BUDGET_EXCEEDED once its tasks spent it), a task over
 * `taskMs`, a job over `jobMs`, and the per-turn limits on model calls and tool calls.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { JobState } from "../../graphs/store.ts";
import { code, episode, init, replay, result, runToEnd, setup, task, write } from "./helpers.ts";

const usage = (costUsd: number) => ({
  op: "usage",
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  costUsd,
});
const sleep = (ms: number) => ({ op: "sleep", ms });
const brief = result({ summary: "found", brief: "x lives in api/x.ts" });

async function job(
  limits: Record<string, unknown>,
  tasks: (dir: string) => Promise<Record<string, unknown>[]>,
) {
  const { env, repo } = await setup();
  const created = await init(env, repo, {
    allowWrites: true,
    config: { limits },
    tasks: await tasks(env.dir),
  });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const started = Date.now();
  const done = await runToEnd(env, repo, jobId);
  const ms = Date.now() - started;
  const state = JSON.parse(
    await Deno.readTextFile(join(env.stateDir, "jobs", jobId, "state.json")),
  ) as JobState;
  return { env, done, state, ms };
}

Deno.test("job budget: parallel workers share it, each is stopped at its share, and the job ends BUDGET_EXCEEDED", async () => {
  // Two at once under $1: each launches with $0.50. Alone, each would spend $0.60 and succeed after its sleep.
  const spender = (dir: string, id: string) =>
    episode(dir, id, [usage(0.3), usage(0.3), sleep(8000), brief]).then((f) =>
      task(id, "scout", { model: replay(f) })
    );
  const r = await job({ concurrency: 2, costUsd: 1 }, async (dir) => [
    await spender(dir, "a"),
    await spender(dir, "b"),
    await spender(dir, "c"),
  ]);
  assert.equal(code(r.done), "BUDGET_EXCEEDED", r.done.stdout + r.done.stderr);
  assert.equal(r.done.code, 4);
  assert.match(r.state.reason!, /^BUDGET_EXCEEDED: the job spent \$1\.2000 of its \$1\.0000 budget/);
  for (const id of ["a", "b"]) {
    const t = r.state.tasks[id];
    assert.equal(t.state, "failed");
    assert.equal(t.reservedUsd, 0.5, "half of the budget each");
    assert.match(
      t.reason!,
      /^BUDGET_EXCEEDED: .*spot stopped the worker: it spent \$0\.6000 of the \$0\.5000/,
    );
    assert.equal(t.costUsd, 0.6);
  }
  assert.equal(r.state.tasks.c.state, "cancelled", "nothing left for the third");
  assert.ok(r.ms < 8000, `the workers were stopped, not waited for: ${r.ms} ms`);
  await Deno.remove(r.env.dir, { recursive: true });
});

Deno.test("job budget: a worker that reports its whole spend in one burst and ends at once still fails its share", async () => {
  // One task under $0.49: its share is all of it. The episode reports $0.60 in one usage event and finishes
  // before spot can stop it, so only the judgement after the turn can hold the share.
  const r = await job({ concurrency: 1, costUsd: 0.49 }, async (dir) => [
    task("burst", "scout", { model: replay(await episode(dir, "burst", [usage(0.6), brief])) }),
  ]);
  assert.equal(code(r.done), "BUDGET_EXCEEDED", r.done.stdout + r.done.stderr);
  const t = r.state.tasks.burst;
  assert.equal(t.state, "failed");
  assert.equal(t.reservedUsd, 0.49);
  assert.match(t.reason!, /^BUDGET_EXCEEDED: .*it spent \$0\.6000 of the \$0\.4900 it was given/);
  assert.equal(t.costUsd, 0.6);
  await Deno.remove(r.env.dir, { recursive: true });
});

Deno.test("job limits: a task over taskMs fails TASK_TIMEOUT and its dependents are blocked", async () => {
  const r = await job({ taskMs: 1000 }, async (dir) => [
    task("slow", "scout", { model: replay(await episode(dir, "slow", [sleep(20_000), brief])) }),
    task("next", "scout", { after: ["slow"], model: replay(await episode(dir, "next", [brief])) }),
  ]);
  assert.equal(code(r.done), "JOB_FAILED", r.done.stdout + r.done.stderr);
  assert.equal(r.state.tasks.slow.state, "failed");
  assert.match(
    r.state.tasks.slow.reason!,
    /^TASK_TIMEOUT: the task ran longer than its limits\.taskMs \(1000 ms\)/,
  );
  assert.equal(r.state.tasks.next.state, "blocked");
  assert.ok(r.ms < 20_000, `${r.ms} ms`);
  await Deno.remove(r.env.dir, { recursive: true });
});

Deno.test("job limits: a job over jobMs is cancelled with JOB_TIMEOUT", async () => {
  const r = await job({ jobMs: 1000, concurrency: 1 }, async (dir) => [
    task("slow", "scout", { model: replay(await episode(dir, "slow", [sleep(20_000), brief])) }),
    task("later", "scout", { model: replay(await episode(dir, "later", [brief])) }),
  ]);
  assert.equal(code(r.done), "JOB_TIMEOUT", r.done.stdout + r.done.stderr);
  assert.equal(r.done.code, 3);
  assert.equal(r.state.status, "cancelled");
  assert.match(r.state.reason!, /^JOB_TIMEOUT: the job ran longer than its limits\.jobMs \(1000 ms\)/);
  assert.equal(r.state.tasks.slow.state, "cancelled", JSON.stringify(r.state.tasks));
  assert.equal(r.state.tasks.later.state, "cancelled");
  assert.ok(r.ms < 20_000, `${r.ms} ms`);
  await Deno.remove(r.env.dir, { recursive: true });
});

Deno.test("job limits: maxTurns and maxToolCalls stop a worker at the first call over them", async () => {
  const r = await job({ maxTurns: 2, maxToolCalls: 1 }, async (dir) => [
    task("talker", "scout", {
      model: replay(await episode(dir, "talker", [usage(0), usage(0), usage(0), sleep(8000), brief])),
    }),
    task("writer", "builder", {
      ownership: ["api"],
      noChecksReason: "a constant",
      model: replay(
        await episode(dir, "writer", [
          write("api/x.ts", "export const x = 2;\n"),
          write("api/y.ts", "export const y = 2;\n"),
          sleep(8000),
          result({ summary: "done", changedFiles: ["api/x.ts", "api/y.ts"] }),
        ]),
      ),
    }),
  ]);
  assert.match(
    r.state.tasks.talker.reason!,
    /^BUDGET_EXCEEDED: .*it made 3 model calls, over its limit of 2/,
  );
  assert.match(
    r.state.tasks.writer.reason!,
    /^BUDGET_EXCEEDED: .*it called a tool 2 times, over its limit of 1/,
  );
  assert.ok(r.ms < 8000, `${r.ms} ms`);
  await Deno.remove(r.env.dir, { recursive: true });
});
