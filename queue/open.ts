/**
 * The configured queue. The nats client is imported here only when `queue.backend` is `nats`, so nothing on the
 * default path loads it (cli/startup_test.ts). A queue executors on other machines can reach needs the nats
 * backend: the local one lives in one process.
 */
import { lazy } from "../base/lazy.ts";
import { SpotError } from "../errors.ts";
import type { QueueConfig } from "../schemas/config.ts";
import type { Queue } from "./types.ts";

export async function openQueue(
  config: QueueConfig,
  options: { client: string; doing: string },
): Promise<Queue> {
  if (config.backend !== "nats") {
    throw new SpotError(
      "QUEUE_NOT_CONFIGURED",
      `Cannot ${options.doing}: no shared queue is configured (queue.backend is "${config.backend}")`,
      {
        details: {
          fix: 'set queue to {"backend": "nats", "url": "nats://HOST:4222"} in the config (docs/fleet.md)',
        },
      },
    );
  }
  const nats = await lazy<typeof import("./nats.ts")>("./nats.ts", import.meta.url);
  return await nats.openNatsQueue(config, { client: options.client });
}
