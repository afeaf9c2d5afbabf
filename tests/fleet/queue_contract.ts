/**
 * The queue seam's contract, run against each backend (queue/memory_test.ts, tests/fleet/nats_queue_test.ts):
 * one claimer at a time, redelivery after the lease, the fence (an attempt that lost its lease or was cancelled
 * can end nothing), fit by profile and sandbox, objects and the executor registry.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { WorkItem } from "../../queue/item.ts";
import type { Claim, Queue } from "../../queue/types.ts";

const SHA = "a".repeat(40);

export function item(taskId: string, extra: Partial<WorkItem> = {}): WorkItem {
  return {
    schemaVersion: 1,
    taskId,
    origin: { host: "origin", runId: "run-1" },
    repo: { id: SHA, head: SHA, start: SHA },
    profile: "replay",
    model: "m",
    sandbox: "none",
    contract: {},
    turn: {},
    verify: true,
    enqueuedAt: new Date().toISOString(),
    ...extra,
  };
}

const fit = { profiles: ["replay"], sandbox: "none" as const };
async function digest(file: string): Promise<string> {
  const bytes = await Deno.readFile(file);
  return `${bytes.length}:${new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)).join(",")}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function claimOrFail(q: Queue, who: string, waitMs = 3_000): Promise<Claim> {
  const c = await q.claim(who, fit, { waitMs });
  assert.ok(c, `${who} claimed nothing`);
  return c;
}

/** `open` makes a fresh queue whose lease is `leaseMs`. */
export function queueContract(name: string, open: (leaseMs: number) => Promise<Queue>): void {
  const LEASE = 1_500;
  const test = (what: string, fn: (q: Queue) => Promise<void>) =>
    Deno.test(`queue ${name}: ${what}`, async () => {
      const q = await open(LEASE);
      try {
        await fn(q);
      } finally {
        await q.close();
      }
    });

  test("a task is claimed once and completes once; a second completion is refused", async (q) => {
    await q.enqueue(item("t-once"));
    const a = await claimOrFail(q, "a");
    assert.equal(a.attempt, 1);
    assert.equal(await q.claim("b", fit, { waitMs: 300 }), null);
    assert.equal(await a.heartbeat(), "held");
    assert.equal(await a.complete({ record: "result/t-once/1/record.json" }), true);
    assert.equal(await a.complete({ record: "again" }), false);
    const s = await q.status("t-once");
    assert.equal(s?.state, "done");
    assert.equal(s?.executor, "a");
    assert.equal(s?.result?.record, "result/t-once/1/record.json");
    assert.equal(await q.claim("b", fit, { waitMs: 300 }), null);
  });

  test("work goes only to an executor with its profile and its sandbox, OS or none", async (q) => {
    await q.enqueue(item("t-fit", { profile: "pi-cheap", sandbox: "os" }));
    assert.equal(await q.claim("x", { profiles: ["replay"], sandbox: "os" }, { waitMs: 300 }), null);
    assert.equal(await q.claim("y", { profiles: ["pi-cheap"], sandbox: "none" }, { waitMs: 300 }), null);
    const z = await q.claim("z", { profiles: ["pi-cheap"], sandbox: "os" }, { waitMs: 3_000 });
    assert.equal(z?.item.taskId, "t-fit");
    await q.enqueue(item("t-bare", { profile: "pi-cheap", sandbox: "none" }));
    assert.equal(await q.claim("z", { profiles: ["pi-cheap"], sandbox: "os" }, { waitMs: 300 }), null);
    const y = await q.claim("y", { profiles: ["pi-cheap"], sandbox: "none" }, { waitMs: 3_000 });
    assert.equal(y?.item.taskId, "t-bare");
  });

  test("a silent holder loses the task after the lease; its late result is refused", async (q) => {
    await q.enqueue(item("t-lease"));
    const slow = await claimOrFail(q, "slow");
    const started = Date.now();
    const next = await claimOrFail(q, "next", LEASE * 4);
    assert.ok(Date.now() - started >= LEASE * 0.8, "redelivered before the lease ran out");
    assert.equal(next.attempt, 2);
    assert.equal(await slow.heartbeat(), "lost");
    assert.equal(await slow.complete({ record: "late" }), false);
    assert.equal(await next.complete({ record: "on-time" }), true);
    const s = await q.status("t-lease");
    assert.equal(s?.result?.record, "on-time");
    assert.deepEqual(s?.history.map((h) => [h.attempt, h.executor, h.outcome]), [[
      1,
      "slow",
      "lease expired",
    ]]);
  });

  test("a holder that heartbeats keeps its task past the lease", async (q) => {
    await q.enqueue(item("t-beat"));
    const a = await claimOrFail(q, "a");
    const end = Date.now() + LEASE * 2.5;
    const other = q.claim("b", fit, { waitMs: LEASE * 2.5 });
    while (Date.now() < end) {
      assert.equal(await a.heartbeat(), "held");
      await sleep(LEASE / 4);
    }
    assert.equal(await other, null);
    assert.equal(await a.complete({ record: "r" }), true);
  });

  test("cancel stops the holder at its next heartbeat and nothing can complete the task", async (q) => {
    await q.enqueue(item("t-cancel"));
    const a = await claimOrFail(q, "a");
    assert.equal((await q.cancel("t-cancel", "the parent stopped it"))?.state, "cancelled");
    assert.equal(await a.heartbeat(), "cancelled");
    assert.equal(await a.complete({ record: "r" }), false);
    assert.equal((await q.status("t-cancel"))?.failure?.message, "the parent stopped it");
    await q.enqueue(item("t-cancel-queued"));
    await q.cancel("t-cancel-queued", "never mind");
    assert.equal(await q.claim("b", fit, { waitMs: 500 }), null);
    assert.equal((await q.status("t-cancel-queued"))?.state, "cancelled");
  });

  test("a released task goes to the next executor as a new attempt", async (q) => {
    await q.enqueue(item("t-release"));
    const a = await claimOrFail(q, "a");
    await a.release("draining");
    assert.equal((await q.status("t-release"))?.state, "queued");
    const b = await claimOrFail(q, "b");
    assert.equal(b.attempt, 2);
    assert.equal(await a.fail({ code: "X", message: "late" }), false);
    assert.equal(await b.fail({ code: "WORKER_FAILED", message: "no" }), true);
    const s = await q.status("t-release");
    assert.equal(s?.state, "failed");
    assert.equal(s?.failure?.code, "WORKER_FAILED");
    assert.deepEqual(s?.history.map((h) => h.outcome), ["draining"]);
  });

  test("watch: the status now, each change at once, the end; nothing for no task; a signal stops it", async (q) => {
    const none = [];
    for await (const s of q.watch("t-none", { idleMs: 100 })) none.push(s);
    assert.deepEqual(none, []);
    await q.enqueue(item("t-watch"));
    // Idle wake-ups an hour apart: only a pushed change can wake this watcher within the test.
    const seen: { state: string; attempt: number; at: number }[] = [];
    const watching = (async () => {
      for await (const s of q.watch("t-watch", { idleMs: 3_600_000 })) {
        seen.push({ state: s.state, attempt: s.attempt, at: Date.now() });
      }
    })();
    const seenBy = async (ok: () => boolean, what: string) => {
      const end = Date.now() + 5_000;
      while (!ok()) {
        if (Date.now() > end) throw new Error(`the watcher did not see ${what}: ${JSON.stringify(seen)}`);
        await sleep(20);
      }
    };
    await seenBy(() => seen.length > 0, "the queued task");
    assert.equal(seen[0].state, "queued");
    const a = await claimOrFail(q, "a");
    const claimedAt = Date.now();
    await seenBy(() => seen.some((s) => s.state === "running"), "the claim");
    assert.ok(seen.find((s) => s.state === "running")!.at - claimedAt < 3_000, "the claim was seen late");
    assert.equal(await a.complete({ record: "r" }), true);
    await seenBy(() => seen.at(-1)?.state === "done", "the end");
    await watching;
    assert.deepEqual(seen.filter((s) => s.state !== "running").map((s) => s.state), ["queued", "done"]);

    await q.enqueue(item("t-stop"));
    const stop = new AbortController();
    let n = 0;
    const stopped = (async () => {
      for await (const _ of q.watch("t-stop", { signal: stop.signal, idleMs: 3_600_000 })) n++;
    })();
    await sleep(200);
    stop.abort();
    await stopped;
    assert.equal(n, 1);
  });

  test("objects round-trip with their metadata, by prefix", async (q) => {
    const dir = await Deno.makeTempDir();
    const src = join(dir, "in");
    await Deno.writeFile(src, new Uint8Array(300_000).map((_, i) => i % 251));
    await q.objects.put("repo/x/1", src, { prerequisites: "abc" });
    await q.objects.put("repo/y/2", src);
    assert.deepEqual(await q.objects.list("repo/x/"), ["repo/x/1"]);
    assert.deepEqual(await q.objects.meta("repo/x/1"), { prerequisites: "abc" });
    assert.equal(await q.objects.get("repo/x/1", join(dir, "out")), true);
    // Compared by digest: a failing deepEqual of 300 kB would spend minutes printing the difference.
    assert.equal(await digest(join(dir, "out")), await digest(src));
    await q.objects.remove("repo/x/1");
    assert.equal(await q.objects.get("repo/x/1", join(dir, "gone")), false);
    assert.equal(await q.objects.meta("repo/x/1"), null);
  });

  test("executors announce themselves and are listed with their load", async (q) => {
    const at = new Date().toISOString();
    await q.executors.announce({
      name: "e1",
      host: "h",
      pid: 1,
      capacity: 2,
      profiles: ["replay"],
      sandbox: "os",
      state: "ready",
      startedAt: at,
      heartbeatAt: at,
      running: [{ taskId: "t", runId: "r", attempt: 1, since: at }],
      done: 0,
      heartbeatSeconds: 1,
    });
    const [e] = await q.executors.list();
    assert.equal(e.name, "e1");
    assert.equal(e.status, "alive");
    assert.equal(e.load, 1);
  });
}
