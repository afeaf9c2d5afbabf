import assert from "node:assert/strict";
import type { KV } from "@nats-io/kv";
import { NatsKv } from "./nats_parts.ts";

Deno.test("a status watch that never comes up is given up, so the caller polls instead of waiting forever", async () => {
  let stopped = 0;
  let comeUp: (w: { stop: () => void }) => void = () => {};
  // The client retries a consumer it cannot create without end (as during a server restart): it never settles.
  const kv = { watch: () => new Promise((resolve) => comeUp = resolve) } as unknown as KV;
  const started = Date.now();
  const stop = await new NatsKv(kv, "test").watch("task-1", () => {});
  assert.ok(Date.now() - started < 15_000, "the watch's set-up was waited for without a bound");
  stop();
  // When it comes up after all, it is stopped rather than left running.
  comeUp({ stop: () => stopped++ });
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(stopped, 1);
});
