/** The scripted model server on its own: each dialect's script, its errors, silence, and the usage tally. */
import assert from "node:assert/strict";
import { startModelServer } from "./mod.ts";

const WRITE_TOOL = {
  name: "write",
  parameters: { type: "object", properties: { filePath: { type: "string" }, content: { type: "string" } } },
};

async function post(url: string, body: unknown): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

Deno.test("the chat dialect calls the client's write tool, then answers done once the result is back", async () => {
  await using server = startModelServer({ workdir: "/w/tree" });
  const first = await (await post(`${server.url}/v1/chat/completions`, {
    model: "m",
    tools: [{ type: "function", function: WRITE_TOOL }],
    messages: [{ role: "user", content: "go" }],
  })).json();
  const call = first.choices[0].message.tool_calls[0];
  assert.equal(call.function.name, "write");
  assert.deepEqual(JSON.parse(call.function.arguments), {
    filePath: "/w/tree/hello.txt",
    content: "hello from the scripted model\n",
  });
  const second = await post(`${server.url}/v1/chat/completions`, {
    model: "m",
    stream: true,
    tools: [{ type: "function", function: WRITE_TOOL }],
    messages: [{ role: "tool", tool_call_id: call.id, content: "ok" }],
  });
  const text = await second.text();
  assert.match(text, /"content":"done"/);
  assert.match(text, /data: \[DONE\]/);
  assert.deepEqual(server.usage(), { input: 1100 + 500, output: 69, cacheRead: 1600, cacheWrite: 0 });
  assert.equal(server.requests.length, 2);
});

Deno.test("the Responses dialect sends apply_patch as a custom tool call and tallies cached tokens", async () => {
  await using server = startModelServer();
  const stream = await (await post(`${server.url}/v1/responses`, {
    model: "m",
    stream: true,
    tools: [{ type: "custom", name: "apply_patch" }],
    input: [{ role: "user", content: "go" }],
  })).text();
  assert.match(stream, /event: response.output_item.done/);
  assert.match(stream, /"type":"custom_tool_call"/);
  assert.match(stream, /\*\*\* Add File: hello.txt/);
  assert.match(stream, /"cached_tokens":400/);
  assert.deepEqual(server.usage(), { input: 1100, output: 60, cacheRead: 400, cacheWrite: 0 });
});

Deno.test("the Anthropic dialect reports input without cached and cache-written tokens", async () => {
  await using server = startModelServer();
  const body = await (await post(`${server.url}/v1/messages`, {
    model: "m",
    tools: [{ name: "Write", input_schema: { properties: { file_path: {}, content: {} } } }],
    messages: [{ role: "user", content: [{ type: "text", text: "go" }] }],
  })).json();
  assert.equal(body.content[0].type, "tool_use");
  assert.equal(body.content[0].input.file_path, "hello.txt");
  assert.deepEqual(body.usage, {
    input_tokens: 1030,
    cache_creation_input_tokens: 70,
    cache_read_input_tokens: 400,
    output_tokens: 60,
  });
  assert.deepEqual(server.usage(), { input: 1030, output: 60, cacheRead: 400, cacheWrite: 70 });
});

Deno.test("the Gemini dialect answers a function call over SSE", async () => {
  await using server = startModelServer();
  const text = await (await post(`${server.url}/v1beta/models/m:streamGenerateContent?alt=sse`, {
    contents: [{ role: "user", parts: [{ text: "go" }] }],
    tools: [{
      functionDeclarations: [{
        name: "write_file",
        parametersJsonSchema: { properties: { file_path: {}, content: {} } },
      }],
    }],
  })).text();
  assert.match(text, /^data: .*"functionCall":\{"name":"write_file"/);
  assert.match(text, /"cachedContentTokenCount":400/);
});

Deno.test("quota and rate limit differ only in the body code, and both carry retry headers", async () => {
  await using server = startModelServer({ scenario: "429", retryAfterMs: 50 });
  const quota = await post(`${server.url}/v1/chat/completions`, { model: "m", messages: [] });
  assert.equal(quota.status, 429);
  assert.equal((await quota.json()).error.code, "insufficient_quota");
  assert.equal(quota.headers.get("retry-after-ms"), "50");
  server.scenario = "429rl";
  const rate = await post(`${server.url}/v1/chat/completions`, { model: "m", messages: [] });
  assert.equal(rate.status, 429);
  assert.equal((await rate.json()).error.code, "rate_limit_exceeded");
  server.scenario = "404";
  const missing = await post(`${server.url}/v1/messages`, { model: "gone", messages: [] });
  assert.equal((await missing.json()).error.type, "not_found_error");
  assert.deepEqual(server.usage(), { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
});

Deno.test("a silent server holds a request without answering until it closes", async () => {
  const server = startModelServer({ scenario: "silent" });
  const pending = post(`${server.url}/v1/chat/completions`, { model: "m", messages: [] }).then(
    async (r) => (await r.body?.cancel(), "answered"),
    () => "dropped",
  );
  const early = await Promise.race([pending, new Promise((r) => setTimeout(() => r("waiting"), 300))]);
  assert.equal(early, "waiting");
  await server.close();
  assert.ok(["answered", "dropped"].includes(await pending));
  assert.equal(server.requests[0].status, 0);
});
