import assert from "node:assert/strict";
import { item } from "../tests/fleet/queue_contract.ts";
import { createStatus, endTask, renewTask, takeTask } from "./tasks.ts";
import { KvConflict, type KvLike } from "./types.ts";

/** A store whose next write lands but whose answer is lost (the server restarted before replying). */
class LossyKv implements KvLike {
  entries = new Map<string, { value: string; revision: number }>();
  seq = 0;
  loseNext = false;
  #answer(revision: number): Promise<number> {
    if (!this.loseNext) return Promise.resolve(revision);
    this.loseNext = false;
    return Promise.reject(new Error("TIMEOUT"));
  }
  get(key: string) {
    return Promise.resolve(this.entries.get(key) ?? null);
  }
  create(key: string, value: string) {
    if (this.entries.has(key)) return Promise.reject(new KvConflict("wrong last sequence"));
    this.entries.set(key, { value, revision: ++this.seq });
    return this.#answer(this.seq);
  }
  update(key: string, value: string, revision: number) {
    if (this.entries.get(key)?.revision !== revision) {
      return Promise.reject(new KvConflict("wrong last sequence"));
    }
    this.entries.set(key, { value, revision: ++this.seq });
    return this.#answer(this.seq);
  }
  watch() {
    return Promise.resolve(() => {});
  }
}

/** Retries a call whose answer was lost, as queue/retry.ts does. */
async function retried<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof KvConflict) throw error;
    return await fn();
  }
}

function lossy(kv: LossyKv): KvLike {
  return {
    get: (k) => kv.get(k),
    create: (k, v) => retried(() => kv.create(k, v)),
    update: (k, v, r) => retried(() => kv.update(k, v, r)),
    watch: () => kv.watch(),
  };
}

Deno.test("the status table: a write whose answer was lost and was tried again counts once, as its writer's", async () => {
  const raw = new LossyKv();
  const kv = lossy(raw);
  raw.loseNext = true;
  await createStatus(kv, item("t1"));
  raw.loseNext = true;
  const taken = await takeTask(kv, "t1", "e1", "2026-01-01T00:00:00.000Z");
  assert.ok("held" in taken);
  assert.equal(taken.held.attempt, 1);
  raw.loseNext = true;
  const renewed = await renewTask(kv, taken.held, "2026-01-01T00:00:01.000Z");
  assert.notEqual(renewed, "lost");
  raw.loseNext = true;
  assert.equal(
    await endTask(
      kv,
      renewed as typeof taken.held,
      { state: "failed", failure: { code: "X", message: "y" } },
      "t",
    ),
    true,
  );
  const stored = JSON.parse(raw.entries.get("t1")!.value);
  assert.equal(stored.state, "failed");
  assert.equal(stored.attempt, 1);
});

Deno.test("the status table: a second create of one task is refused", async () => {
  const kv = lossy(new LossyKv());
  await createStatus(kv, item("t2"));
  await assert.rejects(createStatus(kv, item("t2")), KvConflict);
});
