/**
 * A `spot run --on fleet` that dies while it sends the run never leaves a second task behind: the run records its
 * task's id before the task is queued, so the next `spot run --on fleet` sends that same task (or finds it queued)
 * instead of queueing another beside it, which would run twice and be taken over once. On the local backend (the
 * same seam and fence as nats), with a run prepared by the real CLI.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createContext } from "../../config/context.ts";
import { runOnQueue } from "../../fleet/remote_run.ts";
import type { SendSpec } from "../../fleet/send.ts";
import type { WorkItem } from "../../queue/item.ts";
import { memoryQueue } from "../../queue/memory.ts";
import type { Queue } from "../../queue/types.ts";
import type { SpotContext } from "../../store/context.ts";
import { makeRepo } from "../helpers.ts";
import { machine, prepared } from "./fleet_helpers.ts";

const SPEC: SendSpec = { turn: {}, verify: true, selfReview: false };

/** The queue as the sender sees it, with every task it queued; `die` says when the sender dies. */
function sender(queue: Queue, die: "before" | "after" | "never") {
  const queued: string[] = [];
  const q: Queue = {
    ...queue,
    async enqueue(item: WorkItem) {
      if (die === "before") throw new Error("the sender died before the queue took the task");
      const status = await queue.enqueue(item);
      queued.push(item.taskId);
      if (die === "after") throw new Error("the sender died after the queue took the task");
      return status;
    },
  };
  return { q, queued };
}

async function originWithRun() {
  const origin = await machine("origin", "nats://127.0.0.1:1", { sandbox: "none" });
  const repo = await makeRepo({ "README.md": "# r\n" }, origin.dir);
  const runId = await prepared(origin, repo, "once", [{ op: "write", path: "once.txt", content: "x" }]);
  const context = (signal?: AbortSignal) => createContext({ env: (n) => origin.env[n], signal });
  return { runId, context, episode: join(origin.dir, "once.jsonl") };
}

/** The second `spot run --on fleet`: it follows its task until the test has seen enough, then is interrupted. */
async function sendAgain(ctx: SpotContext, queue: Queue, runId: string): Promise<string> {
  await assert.rejects(runOnQueue(ctx, queue, runId, SPEC), (e: { code?: string }) => {
    assert.equal(e.code, "WORKER_INTERRUPTED", String(e));
    return true;
  });
  return (await ctx.store.load(runId)).fleet!.taskId;
}

for (const die of ["after", "before"] as const) {
  Deno.test(`a sender that dies ${die} the queue took the task: sent again, the run has one task`, async () => {
    const { runId, context } = await originWithRun();
    const queue = memoryQueue({ leaseMs: 3_000 });
    const first = sender(queue, die);
    await assert.rejects(runOnQueue(await context(), first.q, runId, SPEC), /the sender died/);

    const second = sender(queue, "never");
    const stop = new AbortController();
    const ctx = await context(stop.signal);
    // Interrupted once the run says its task is queued (or after 5 s, for the test to report what it saw).
    const seen = (async () => {
      for (let i = 0; i < 100 && !(await ctx.store.load(runId)).fleet?.enqueuedAt; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      stop.abort();
    })();
    const taskId = await sendAgain(ctx, second.q, runId);
    await seen;
    const all = [...first.queued, ...second.queued];
    assert.deepEqual(all, [taskId], `queued ${all.join(", ")}; the run follows ${taskId}`);
    const status = await queue.status(taskId);
    assert.equal(status?.origin.runId, runId);
    assert.equal(status?.state, "cancelled", "the interrupt cancelled the one task");
  });
}

Deno.test("a replay run whose episode is gone is refused before anything is queued, and stays prepared", async () => {
  const { runId, context, episode } = await originWithRun();
  await Deno.rename(episode, `${episode}.away`);
  const queue = memoryQueue({ leaseMs: 3_000 });
  const watched = sender(queue, "never");
  const ctx = await context();
  await assert.rejects(runOnQueue(ctx, watched.q, runId, SPEC), (e: { code?: string; message?: string }) => {
    assert.equal(e.code, "EPISODE_INVALID", String(e));
    assert.match(String(e.message), /nothing was sent/);
    return true;
  });
  assert.deepEqual(watched.queued, []);
  assert.equal((await ctx.store.load(runId)).status, "prepared");
});

for (const serving of [[], ["other"], ["replay"]]) {
  Deno.test(`a run waiting on a fleet says so when no executor serves its profile (one serves ${serving})`, async () => {
    const { runId, context } = await originWithRun();
    const queue = memoryQueue({ leaseMs: 3_000 });
    if (serving.length) {
      const now = new Date().toISOString();
      await queue.executors.announce({
        name: "build-1",
        host: "h",
        pid: 1,
        capacity: 1,
        profiles: serving,
        sandbox: "none",
        state: "ready",
        startedAt: now,
        heartbeatAt: now,
        running: [],
        done: 0,
        heartbeatSeconds: 60,
      });
    }
    const stop = new AbortController();
    const lines: string[] = [];
    const env = (await context()).env;
    const ctx = await createContext({
      env,
      signal: stop.signal,
      progress: (line: string) => {
        lines.push(line);
        if (/waiting for an executor/.test(line)) stop.abort();
      },
    });
    await assert.rejects(
      runOnQueue(ctx, queue, runId, SPEC),
      (e: { code?: string }) => e.code === "WORKER_INTERRUPTED",
    );
    const waiting = lines.find((l) => /waiting for an executor/.test(l)) ?? lines.join("\n");
    if (serving.includes("replay")) assert.doesNotMatch(waiting, /no executor alive/);
    else assert.match(waiting, /no executor alive serves replay: start one with spot executor join/);
  });
}
