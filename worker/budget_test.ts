import assert from "node:assert/strict";
import type { WorkerEvent } from "../schemas/events.ts";
import { budgetSpent, NO_SPEND, spend } from "./budget.ts";

const usage = (costUsd?: number): WorkerEvent => ({
  type: "worker_usage",
  usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
  ...(costUsd === undefined ? {} : { costUsd }),
});
const tool: WorkerEvent = { type: "worker_tool_call", id: "t", name: "bash", input: {} };
const text: WorkerEvent = { type: "worker_text", text: "hi" };

Deno.test("spend() counts cost and model calls from usage reports and tool calls from calls, nothing else", () => {
  const totals = [usage(0.25), tool, text, usage(), tool, usage(0.5)].reduce(spend, NO_SPEND);
  assert.deepEqual(totals, { costUsd: 0.75, turns: 3, toolCalls: 2 });
});

Deno.test("budgetSpent() stops at the cost given, and past the turns and tool calls allowed", () => {
  assert.equal(budgetSpent(undefined, { costUsd: 99, turns: 99, toolCalls: 99 }), null);
  assert.equal(budgetSpent({ costUsd: 1 }, { costUsd: 0.99, turns: 9, toolCalls: 9 }), null);
  assert.match(
    budgetSpent({ costUsd: 1 }, { costUsd: 1, turns: 1, toolCalls: 0 })!,
    /\$1\.0000 of the \$1\.0000/,
  );
  assert.equal(budgetSpent({ turns: 2 }, { costUsd: 0, turns: 2, toolCalls: 0 }), null);
  assert.match(
    budgetSpent({ turns: 2 }, { costUsd: 0, turns: 3, toolCalls: 0 })!,
    /3 model calls, over its limit of 2/,
  );
  assert.equal(budgetSpent({ toolCalls: 0 }, { costUsd: 0, turns: 5, toolCalls: 0 }), null);
  assert.match(
    budgetSpent({ toolCalls: 0 }, { costUsd: 0, turns: 5, toolCalls: 1 })!,
    /a tool 1 times, over its limit of 0/,
  );
});
