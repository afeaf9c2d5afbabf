import assert from "node:assert/strict";
import { chunk, EXPECTED, fixtureLines } from "../../tests/fixtures/parent/fixture.ts";
import { readCodexRollout } from "./codex_rollout.ts";
import { parentTotal } from "./usage.ts";

const { totalTokens: _s, ...START } = EXPECTED.codex.start;
const { totalTokens: _e, ...END } = EXPECTED.codex.end;

Deno.test("readCodexRollout() takes the last total_token_usage of the whole rollout", async () => {
  const read = readCodexRollout(chunk(await fixtureLines("codex"), 0));
  assert.deepEqual(read.usage, END);
  assert.equal(parentTotal(read.usage), EXPECTED.codex.end.totalTokens);
  assert.equal(read.sessionId, EXPECTED.codex.threadId);
  assert.equal(read.compactions, 1);
  assert.equal(read.resets, 0);
});

Deno.test("readCodexRollout() of the lines on disk at the meter call gives the start figures", async () => {
  const lines = await fixtureLines("codex");
  const read = readCodexRollout(chunk(lines, 0, EXPECTED.codex.splitLine));
  assert.deepEqual(read.usage, START);
  // Near miss: one line more is still the same total (a function_call_output carries no usage) ...
  assert.deepEqual(readCodexRollout(chunk(lines, 0, EXPECTED.codex.splitLine + 1)).usage, START);
  // ... but the next token_count moves it.
  assert.notDeepEqual(readCodexRollout(chunk(lines, 0, EXPECTED.codex.splitLine + 3)).usage, START);
});

Deno.test("readCodexRollout() ignores a half-written last line and counts it once complete", async () => {
  const lines = await fixtureLines("codex");
  const before = chunk(lines, 0, lines.length - 1);
  const last = lines.at(-1)!;
  const torn = readCodexRollout(before + last.slice(0, 40));
  assert.equal(torn.skipped, 0);
  assert.equal(torn.bytes, new TextEncoder().encode(before).length);
  assert.notDeepEqual(torn.usage, END);
  assert.deepEqual(readCodexRollout(before + last + "\n").usage, END);
});

Deno.test("readCodexRollout() subtracts cached input from input and keeps reasoning inside output", () => {
  const line = {
    type: "event_msg",
    payload: {
      type: "token_count",
      info: {
        total_token_usage: {
          input_tokens: 2500,
          cached_input_tokens: 1300,
          output_tokens: 45,
          reasoning_output_tokens: 20,
          total_tokens: 2545,
        },
      },
    },
  };
  const read = readCodexRollout(JSON.stringify(line) + "\n");
  assert.deepEqual(read.usage, { input: 1200, cacheRead: 1300, cacheWrite: 0, output: 45, reasoning: 20 });
  assert.equal(parentTotal(read.usage), 2545);
});

Deno.test("readCodexRollout() sums the segments when the running total restarts", () => {
  const tc = (input: number, cached: number, output: number) =>
    JSON.stringify({
      type: "event_msg",
      payload: {
        type: "token_count",
        info: {
          total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output },
        },
      },
    }) + "\n";
  const rateOnly = JSON.stringify({ type: "event_msg", payload: { type: "token_count", info: null } }) + "\n";
  const read = readCodexRollout(
    tc(1000, 0, 100) + tc(3000, 800, 300) + rateOnly + tc(500, 0, 50) + "not json\n",
  );
  assert.equal(read.resets, 1);
  assert.equal(read.tokenCounts, 3);
  assert.equal(read.skipped, 1);
  assert.deepEqual(read.usage, {
    input: 2200 + 500,
    cacheRead: 800,
    cacheWrite: 0,
    output: 350,
    reasoning: 0,
  });
});
