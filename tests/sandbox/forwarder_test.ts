/**
 * Conformance, NET-02/NET-03/SEC-04: a scripted worker CLI (launched by the
 * pi adapter, so it gets pi's config files and env) uses the provider
 * channel honestly once, then abuses it: other routes, an exfil query, an
 * oversized body, a wrong key, and a direct call around the forwarder. A
 * host-side stand-in for the provider records what reaches it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BACKENDS,
  episode,
  expectEscape,
  fakeCliLab,
  filesContaining,
  PROVIDER_KEY_ENV as KEY_ENV,
  readOr,
} from "./harness.ts";

/** The worker CLI: reads pi's models.json like pi would, then tries everything; prints a pi stream. */
const FAKE_CLI = `
const home = Deno.env.get("HOME")!;
const models = JSON.parse(await Deno.readTextFile(home + "/.pi/agent/models.json"));
const p = Object.values(models.providers)[0] as { baseUrl: string; apiKey: string };
const key = Deno.env.get(p.apiKey) ?? "";
const out: Record<string, unknown> = { base: p.baseUrl, env: Deno.env.toObject() };
const json = { "content-type": "application/json" };
async function call(url: string, init: RequestInit = {}) {
  try { const r = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) }); await r.text(); return r.status; }
  catch (e) { return String(e).slice(0, 200); }
}
const chat = JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] });
out.chat = await call(p.baseUrl + "/chat/completions", { method: "POST", headers: { ...json, authorization: "Bearer " + key }, body: chat });
out.exfil = await call(p.baseUrl + "/exfil?d=EXFIL_MARKER", { headers: { authorization: "Bearer " + key } });
out.otherRoute = await call(p.baseUrl + "/embeddings", { method: "POST", headers: { ...json, authorization: "Bearer " + key }, body: "{}" });
out.big = await call(p.baseUrl + "/chat/completions", { method: "POST", headers: { ...json, authorization: "Bearer " + key }, body: "x".repeat(20 * 1024 * 1024) });
out.wrongKey = await call(p.baseUrl + "/chat/completions", { method: "POST", headers: { ...json, authorization: "Bearer guessed" }, body: chat });
out.direct = await call((await Deno.readTextFile("upstream.txt")).trim() + "/chat/completions?direct=1", { method: "POST", headers: { ...json, authorization: "Bearer " + key }, body: chat });
await Deno.writeTextFile("cli-out.json", JSON.stringify(out, null, 2));
const message = { role: "assistant", content: [{ type: "text", text: "done" }], provider: "x", model: "m",
  usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
  stopReason: "stop", timestamp: Date.now() };
for (const e of [{ type: "agent_start" }, { type: "turn_start" }, { type: "message_end", message }, { type: "agent_end", messages: [message] }]) console.log(JSON.stringify(e));
`;

interface Seen {
  method: string;
  path: string;
  auth: string | null;
}

function provider() {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    await req.arrayBuffer();
    seen.push({
      method: req.method,
      path: url.pathname + url.search,
      auth: req.headers.get("authorization"),
    });
    return Response.json({ id: "x", object: "chat.completion", choices: [] });
  });
  return { seen, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

for (const backend of BACKENDS) {
  Deno.test({
    name: `provider channel under ${backend}: only the API route passes, with the real key added outside`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async (t) => {
      const up = provider();
      const { lab: l, realKey } = await fakeCliLab(FAKE_CLI, up.url, {
        files: { "upstream.txt": `${up.url}/v1\n` },
      });
      try {
        const ep = await episode(l, backend, [], { prepareArgs: ["--profile", "fakecli"] });
        assert.equal(ep.run.code, 0, ep.run.stderr);
        const out = JSON.parse(readOr(join(ep.worktree, "cli-out.json"), "{}"));
        const log = readOr(join(ep.runDir, "forwarder.jsonl")).split("\n").filter(Boolean).map((x) =>
          JSON.parse(x)
        );

        await t.step("the honest chat request reaches the provider with the real key", () => {
          assert.equal(out.chat, 200, JSON.stringify(out));
          const chats = up.seen.filter((s) =>
            s.path === "/v1/chat/completions" && s.auth === `Bearer ${realKey}`
          );
          assert.ok(chats.length >= 1, JSON.stringify(up.seen));
        });
        await t.step(
          "NET-03: exfil paths, other routes, big bodies and wrong keys never reach the provider",
          () => {
            const abuse = up.seen.filter((s) => s.path !== "/v1/chat/completions");
            expectEscape(
              backend,
              abuse.some((s) => s.path.includes("EXFIL_MARKER")),
              JSON.stringify(up.seen),
            );
            if (backend !== "bwrap") return;
            assert.equal(up.seen.length, 1, `only the honest request arrives: ${JSON.stringify(up.seen)}`);
            assert.deepEqual([out.exfil, out.otherRoute, out.big, out.wrongKey], [403, 403, 413, 401]);
            const refused = log.filter((e) => e.decision === "refused").map((e) => e.status).sort();
            assert.deepEqual(refused, [401, 403, 403, 413], "every refusal is logged");
            assert.ok(log.every((e) => typeof e.path === "string" && !JSON.stringify(e).includes(realKey)));
          },
        );
        await t.step("NET-02: a direct call around the forwarder does not reach the provider", () => {
          expectEscape(backend, up.seen.some((s) => s.path.includes("direct=1")), String(out.direct));
        });
        await t.step("SEC-04: the worker sees a placeholder; the real key is nowhere it can write", () => {
          const leaks = [
            ...filesContaining(ep.worktree, realKey),
            ...filesContaining(ep.runDir, realKey),
          ];
          expectEscape(
            backend,
            JSON.stringify(out.env ?? {}).includes(realKey) || leaks.length > 0,
            leaks.join(),
          );
          if (backend === "bwrap") {
            assert.match(String((out.env as Record<string, string>)[KEY_ENV]), /^spot-placeholder-/);
          }
        });
      } finally {
        await up.close();
        await l.cleanup();
      }
    },
  });
}
