import assert from "node:assert/strict";
import { abortable, orStalled, retrying } from "./retry.ts";

Deno.test("retrying() stops in the pause between tries as soon as its signal aborts, with CANCELLED", async () => {
  const cancel = new AbortController();
  let tries = 0;
  const t0 = Date.now();
  setTimeout(() => cancel.abort(), 300);
  await assert.rejects(
    retrying("fetch a bundle", () => {
      tries++;
      return Promise.reject(new Error("no responders"));
    }, { signal: cancel.signal }),
    (e: { code?: string }) => e.code === "CANCELLED",
  );
  assert.ok(Date.now() - t0 < 2_000, `took ${Date.now() - t0} ms`);
  assert.ok(tries >= 2, "it did retry before the cancel");
});

Deno.test("abortable() refuses at once when its signal aborts, and hands on the answer otherwise", async () => {
  const cancel = new AbortController();
  const never = new Promise<string>(() => {});
  setTimeout(() => cancel.abort(), 50);
  await assert.rejects(
    abortable(never, cancel.signal, "read"),
    (e: { code?: string }) => e.code === "CANCELLED",
  );
  assert.equal(await abortable(Promise.resolve("ok"), new AbortController().signal, "read"), "ok");
  assert.equal(await abortable(Promise.resolve("ok"), undefined, "read"), "ok");
});

Deno.test("orStalled turns a wait with no end into an error a retry answers", async () => {
  await assert.rejects(orStalled(new Promise(() => {}), 20, "fetch x"), /fetch x: nothing came for 0.02 s/);
  assert.equal(await orStalled(Promise.resolve(7), 1_000, "fetch x"), 7);
  // The first try stalls, the second answers: retrying gets the answer.
  let tries = 0;
  const got = await retrying(
    "fetch x",
    () => orStalled(++tries === 1 ? new Promise<number>(() => {}) : Promise.resolve(tries), 20, "fetch x"),
    { patienceMs: 5_000 },
  );
  assert.equal(got, 2);
});
