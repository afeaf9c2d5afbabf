import assert from "node:assert/strict";
import { budgetReached, ledger, shares } from "./budget.ts";
import type { TaskRecord } from "../store.ts";

const running = (reservedUsd: number): TaskRecord => ({ state: "running", reservedUsd });
const ended = (costUsd: number): TaskRecord => ({ state: "succeeded", costUsd });

Deno.test("ledger() counts what ended tasks spent and what running ones hold", () => {
  assert.deepEqual(ledger({ a: ended(0.5), b: running(0.25), c: { state: "queued" } }), {
    spentUsd: 0.5,
    reservedUsd: 0.25,
  });
});

Deno.test("shares(): parallel workers' shares never add up to more than the budget left", () => {
  const three = shares(1, {}, ["a", "b", "c"], 3);
  assert.deepEqual([...three.values()].map((v) => v.toFixed(4)), ["0.3333", "0.3333", "0.3333"]);
  // One ready of three free slots: it gets a third, the rest stays for tasks that become ready later.
  assert.deepEqual([...shares(1, {}, ["a"], 3).values()], [1 / 3]);
  // What others spent or hold is not handed out again.
  const later = shares(1, { a: ended(0.4), b: running(0.3) }, ["c"], 1);
  assert.equal(later.get("c")!.toFixed(4), "0.3000");
  for (
    const [limit, tasks, start, free] of [
      [1, { a: running(0.9) }, ["b", "c"], 2],
      [2, { a: ended(1), b: running(0.5) }, ["c", "d", "e"], 5],
    ] as const
  ) {
    const total = [...shares(limit, tasks, start, free).values()].reduce((s, v) => s + v, 0);
    const { spentUsd, reservedUsd } = ledger(tasks);
    assert.ok(spentUsd + reservedUsd + total <= limit + 1e-9, `${limit}: ${total}`);
  }
  // Nothing left: nothing starts.
  assert.equal(shares(1, { a: ended(0.6), b: running(0.4) }, ["c"], 2).size, 0);
});

Deno.test("budgetReached() once ended tasks spent the limit", () => {
  assert.equal(budgetReached(undefined, { a: ended(99) }), null);
  assert.equal(budgetReached(1, { a: ended(0.5), b: running(0.9) }), null);
  assert.match(
    budgetReached(1, { a: ended(0.5), b: ended(0.5) })!,
    /^BUDGET_EXCEEDED: the job spent \$1\.0000 of its \$1\.0000/,
  );
});
