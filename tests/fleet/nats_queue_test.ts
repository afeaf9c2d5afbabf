/** The queue seam's contract against a real loopback nats-server (JetStream, KV, object store). */
import { openNatsQueue } from "../../queue/nats.ts";
import { QueueConfig } from "../../schemas/config.ts";
import { type NatsServer, startNats } from "./nats_server.ts";
import { queueContract } from "./queue_contract.ts";

let server: NatsServer | null = null;
let n = 0;

queueContract("nats", async (leaseMs) => {
  server ??= await startNats();
  // Each test gets its own stream and buckets on the one server.
  const config = QueueConfig.parse({
    backend: "nats",
    url: server.url,
    prefix: `T${++n}`,
    leaseSeconds: Math.max(2, Math.round(leaseMs / 1000)),
  });
  return await openNatsQueue({ ...config, leaseSeconds: leaseMs / 1000 }, { client: "contract test" });
});

Deno.test({
  name: "queue nats: the server stops",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await server?.stop();
  },
});
