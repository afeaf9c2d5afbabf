/**
 * SEC-05: the provider forwarder never hands the real key back. A scripted provider does what real ones
 * have done: redirects with the key kept in the query, quotes the Authorization header in an error body
 * and in a response header, and streams a body that echoes the key across chunk boundaries. The worker
 * (a scripted CLI launched by the pi adapter under bwrap) records everything it receives.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { episode, fakeCliLab, filesContaining, readOr } from "./harness.ts";

const FAKE_CLI = `
const home = Deno.env.get("HOME")!;
const models = JSON.parse(await Deno.readTextFile(home + "/.pi/agent/models.json"));
const p = Object.values(models.providers)[0] as { baseUrl: string; apiKey: string };
const key = Deno.env.get(p.apiKey) ?? "";
const seen: Record<string, unknown> = {};
async function call(name: string, url: string, init: RequestInit = {}) {
  try {
    const r = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(5000) });
    seen[name] = { status: r.status, headers: Object.fromEntries(r.headers), body: await r.text() };
  } catch (e) { seen[name] = String(e).slice(0, 200); }
}
const auth = { authorization: "Bearer " + key, "content-type": "application/json" };
const chat = JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] });
await call("error", p.baseUrl + "/chat/completions?mode=error", { method: "POST", headers: auth, body: chat });
await call("redirect", p.baseUrl + "/models?mode=redirect&key=" + key);
await call("stream", p.baseUrl + "/chat/completions?mode=stream", { method: "POST", headers: auth, body: chat });
await Deno.writeTextFile("cli-out.json", JSON.stringify({ key, seen }, null, 2));
const message = { role: "assistant", content: [{ type: "text", text: "done" }], provider: "x", model: "m",
  usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
  stopReason: "stop", timestamp: Date.now() };
for (const e of [{ type: "agent_start" }, { type: "turn_start" }, { type: "message_end", message }, { type: "agent_end", messages: [message] }]) console.log(JSON.stringify(e));
`;

/** A provider that echoes whatever credential reaches it. */
function echoingProvider() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    await req.arrayBuffer();
    const credential = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "") ||
      (url.searchParams.get("key") ?? "");
    const mode = url.searchParams.get("mode");
    if (mode === "redirect") {
      return new Response(null, {
        status: 302,
        headers: { location: `${url.origin}/v1/models?key=${credential}` },
      });
    }
    if (mode === "error") {
      return Response.json({ error: { message: `Incorrect API key provided: ${credential}` } }, {
        status: 401,
        headers: { "x-echo": `Bearer ${credential}` },
      });
    }
    const half = Math.floor(credential.length / 2);
    const parts = [
      `data: {"echo":"${credential.slice(0, half)}`,
      `${credential.slice(half)}"}\n\n`,
      "data: [DONE]\n\n",
    ];
    return new Response(
      new ReadableStream({
        async start(c) {
          for (const part of parts) {
            c.enqueue(new TextEncoder().encode(part));
            await new Promise((r) => setTimeout(r, 20));
          }
          c.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test({
  name: "SEC-05: the forwarder rewrites the real key out of redirects, error bodies, headers and streams",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const up = echoingProvider();
    const { lab: l, realKey } = await fakeCliLab(FAKE_CLI, up.url);
    try {
      const ep = await episode(l, "bwrap", [], { prepareArgs: ["--profile", "fakecli"] });
      assert.equal(ep.run.code, 0, ep.run.stderr);
      const out = JSON.parse(readOr(join(ep.worktree, "cli-out.json"), "{}"));
      const seen = JSON.stringify(out.seen ?? {});
      assert.match(String(out.key), /^spot-placeholder-/);
      // The provider really did echo a credential each time; the worker got the placeholder instead.
      assert.equal(out.seen.redirect.status, 302, seen);
      assert.equal(out.seen.redirect.headers.location, `${up.url}/v1/models?key=${out.key}`);
      assert.equal(out.seen.error.status, 401, seen);
      assert.match(out.seen.error.body, new RegExp(`Incorrect API key provided: ${out.key}`));
      assert.equal(out.seen.error.headers["x-echo"], `Bearer ${out.key}`);
      assert.match(out.seen.stream.body, new RegExp(`"echo":"${out.key}"`));
      assert.ok(!seen.includes(realKey), `the real key reached the worker: ${seen}`);
      assert.deepEqual(filesContaining(ep.worktree, realKey), []);
    } finally {
      await up.close();
      await l.cleanup();
    }
  },
});
