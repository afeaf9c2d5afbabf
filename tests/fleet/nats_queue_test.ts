/** The queue seam's contract against a real loopback nats-server (JetStream, KV, object store). */
import { openNatsQueue } from "../../queue/nats.ts";
import { QueueConfig } from "../../schemas/config.ts";
import { startNats } from "./nats_server.ts";
import type { Queue } from "../../queue/types.ts";
import assert from "node:assert/strict";
import { item, queueContract } from "./queue_contract.ts";

/** Each test gets its own server, stopped (by its pid) when the test closes its queue, even a filtered run's. */
queueContract("nats", async (leaseMs) => {
  const server = await startNats();
  try {
    const config = QueueConfig.parse({
      backend: "nats",
      url: server.url,
      leaseSeconds: Math.max(2, Math.round(leaseMs / 1000)),
    });
    const q = await openNatsQueue({ ...config, leaseSeconds: leaseMs / 1000 }, { client: "contract test" });
    return { ...q, close: () => q.close().finally(() => server.stop()) };
  } catch (error) {
    await server.stop();
    throw error;
  }
});

Deno.test({
  name: "queue nats: a holder that heartbeats through a server restart keeps its task and completes it once",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const own = await startNats();
    const config = QueueConfig.parse({ backend: "nats", url: own.url, prefix: "RESTART", leaseSeconds: 3 });
    const a = await openNatsQueue(config, { client: "holder" });
    const b = await openNatsQueue(config, { client: "other" });
    try {
      await a.enqueue(item("t-restart"));
      const fit = { profiles: ["replay"], sandbox: "none" as const };
      const held = await a.claim("a", fit, { waitMs: 3_000 });
      assert.ok(held);
      let beating = true;
      const beats: string[] = [];
      const beat = (async () => {
        while (beating) {
          beats.push(await held.heartbeat().catch((e) => `error ${e.message}`));
          await new Promise((r) => setTimeout(r, 500));
        }
      })();
      await own.restart({ downMs: 500 });
      // Three leases after the restart, nobody else got it.
      const stolen = await b.claim("b", fit, { waitMs: 9_000 });
      beating = false;
      await beat;
      assert.equal(stolen, null, `redelivered after the restart (beats: ${beats.join(", ")})`);
      assert.equal(beats.at(-1), "held");
      assert.equal(await held.complete({ record: "r" }), true);
      assert.equal((await b.status("t-restart"))?.state, "done");
    } finally {
      await a.close();
      await b.close();
      await own.stop();
    }
  },
});

Deno.test({
  name: "queue nats: two origins storing one object at the same moment both succeed",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startNats();
    const config = QueueConfig.parse({ backend: "nats", url: server.url, prefix: "RACE" });
    const queues: Queue[] = [];
    try {
      for (let i = 1; i <= 4; i++) queues.push(await openNatsQueue(config, { client: `racer ${i}` }));
      const file = await Deno.makeTempFile();
      await Deno.writeFile(file, new Uint8Array(3_000_000).fill(7));
      const results = await Promise.allSettled(
        queues.map((q) => q.objects.put("repo/x/same", file, { p: "" })),
      );
      assert.deepEqual(results.filter((r) => r.status === "rejected"), []);
      assert.deepEqual(await queues[0].objects.meta("repo/x/same"), { p: "" });
    } finally {
      for (const q of queues) await q.close();
      await server.stop();
    }
  },
});
