import assert from "node:assert/strict";
import { chunk, EXPECTED, fixtureLines } from "../../tests/fixtures/parent/fixture.ts";
import { readClaudeSession } from "./claude_session.ts";
import { parentTotal } from "./usage.ts";

const { totalTokens: _s, ...START } = EXPECTED.claude.start;
const { totalTokens: _e, ...END } = EXPECTED.claude.end;

Deno.test("readClaudeSession() sums each assistant message once across its content-block lines", async () => {
  const lines = await fixtureLines("claude");
  const read = readClaudeSession([chunk(lines, 0)]);
  assert.deepEqual(read.usage, END);
  assert.equal(parentTotal(read.usage), EXPECTED.claude.end.totalTokens);
  assert.ok(read.duplicateLines > 0);
  assert.equal(read.compactions, 1);
});

Deno.test("readClaudeSession() would overcount if it summed every assistant line", async () => {
  const lines = await fixtureLines("claude");
  let naive = 0;
  for (const line of lines) {
    const v = JSON.parse(line);
    if (v.type !== "assistant") continue;
    const u = v.message.usage;
    naive += u.input_tokens + u.output_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  }
  assert.ok(naive > EXPECTED.claude.end.totalTokens, "the fixture repeats usage across lines");
  assert.equal(parentTotal(readClaudeSession([chunk(lines, 0)]).usage), EXPECTED.claude.end.totalTokens);
});

Deno.test("readClaudeSession() of the lines on disk at the meter call gives the start figures", async () => {
  const lines = await fixtureLines("claude");
  assert.deepEqual(readClaudeSession([chunk(lines, 0, EXPECTED.claude.splitLine)]).usage, START);
});

Deno.test("readClaudeSession() keeps the largest output of a message whose first line had a partial count", () => {
  const line = (output: number) =>
    JSON.stringify({
      type: "assistant",
      message: {
        id: "msg_1",
        usage: {
          input_tokens: 3,
          cache_creation_input_tokens: 10,
          cache_read_input_tokens: 100,
          output_tokens: output,
        },
      },
    }) + "\n";
  const read = readClaudeSession([line(8) + line(150)]);
  assert.deepEqual(read.usage, { input: 3, cacheRead: 100, cacheWrite: 10, output: 150, reasoning: 0 });
  assert.equal(read.messages, 1);
});

Deno.test("readClaudeSession() counts a subagent transcript but not a message it repeats from the session", () => {
  const msg = (id: string, output: number) =>
    JSON.stringify({
      type: "assistant",
      message: {
        id,
        usage: {
          input_tokens: 1,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: output,
        },
      },
    }) + "\n";
  const read = readClaudeSession([msg("a", 10), msg("a", 10) + msg("b", 20)]);
  assert.equal(read.usage.output, 30);
  assert.equal(read.messages, 2);
});
