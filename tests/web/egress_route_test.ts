/**
 * The egress proxy step's provider route, run for real: a research turn behind the forwarder has the proxy
 * beside it, and a CLI that ignores NO_PROXY asks the proxy for the forwarder's inside address
 * (`CONNECT 127.0.0.1:18765`, or `POST http://127.0.0.1:18765/...`). Those requests must reach spot's
 * forwarder socket (a stand-in here that answers "forwarder"), never a service on the host's own
 * 127.0.0.1:18765 (a decoy that answers "decoy"), even when the web list names that address; every other
 * host:port goes out only when listed. Without the route, the same listed request reaches the decoy: the
 * test can fail.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createContext } from "../../config/context.ts";
import { startEgress } from "../../isolation/egress.ts";
import { BRIDGE_PORT } from "../../sandbox/sandbox_policy.ts";
import { spotEnv } from "../helpers.ts";
import { through } from "./proxy_client.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A unix-socket HTTP server standing in for spot's forwarder. */
function fakeForwarder(path: string, seen: string[]) {
  const listener = Deno.listen({ transport: "unix", path });
  (async () => {
    for await (const conn of listener) {
      const buf = new Uint8Array(8192);
      const n = await conn.read(buf);
      seen.push(dec.decode(buf.subarray(0, n ?? 0)).split("\r\n")[0]);
      await conn.write(
        enc.encode("HTTP/1.1 200 OK\r\ncontent-length: 9\r\nconnection: close\r\n\r\nforwarder"),
      );
      conn.close();
    }
  })().catch(() => {});
  return listener;
}

Deno.test({
  name: "egress provider route: the forwarder's inside address goes to its socket, never the host's port",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const env = await spotEnv({});
    const ctx = await createContext({ env: (k) => env.env[k] });
    const runId = "route-1";
    await Deno.mkdir(ctx.store.dir(runId), { recursive: true });
    const forwarderSeen: string[] = [];
    const fwd = fakeForwarder(join(env.dir, "fwd.sock"), forwarderSeen);
    const decoyHits: string[] = [];
    let decoy: Deno.HttpServer | null = null;
    try {
      decoy = Deno.serve({ hostname: "127.0.0.1", port: BRIDGE_PORT, onListen() {} }, (r) => {
        decoyHits.push(new URL(r.url).pathname);
        return new Response("decoy");
      });
    } catch {
      // Something of the machine's already holds the port: the answers below still tell who served them.
    }
    const page = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response("the page"),
    );
    const pageAt = `127.0.0.1:${page.addr.port}`;
    const allow = [pageAt, `127.0.0.1:${BRIDGE_PORT}`];
    const routed = await startEgress(ctx, {
      runId,
      allow,
      logName: "worker-web.jsonl",
      timeoutMs: 30_000,
      forwarderSocket: join(env.dir, "fwd.sock"),
    });
    try {
      const post = await through(
        routed.socket,
        `POST http://127.0.0.1:${BRIDGE_PORT}/v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n`,
      );
      assert.match(post, /\r\n\r\nforwarder$/, post);
      const tunnel = await through(
        routed.socket,
        `CONNECT 127.0.0.1:${BRIDGE_PORT} HTTP/1.1\r\n\r\n`,
        "GET /v1/models HTTP/1.1\r\nhost: x\r\n\r\n",
      );
      assert.match(tunnel, /forwarder$/, tunnel);
      assert.deepEqual(forwarderSeen, ["POST /v1/chat/completions HTTP/1.1", "GET /v1/models HTTP/1.1"]);
      assert.deepEqual(decoyHits, [], "the host's 127.0.0.1:18765 was never reached");
      assert.match(await through(routed.socket, `GET http://${pageAt}/p HTTP/1.1\r\n\r\n`), /the page$/);
      const other = await through(routed.socket, `GET http://127.0.0.1:${BRIDGE_PORT + 1}/ HTTP/1.1\r\n\r\n`);
      assert.match(other, /^HTTP\/1\.1 403/);
      const summary = await routed.stop();
      assert.deepEqual(summary && [summary.provider, summary.allowed, summary.refused], [2, 1, 1]);
      const log = (await Deno.readTextFile(join(ctx.store.dir(runId), "worker-web.jsonl"))).trim().split("\n")
        .map((l) => JSON.parse(l));
      assert.deepEqual(log.filter((l) => l.decision !== "closed").map((l) => [l.decision, l.port]), [
        ["provider", BRIDGE_PORT],
        ["provider", BRIDGE_PORT],
        ["allowed", page.addr.port],
        ["refused", undefined],
      ]);
      // The control: the same listed address through a proxy without the route reaches the host's port.
      if (decoy) {
        const plain = await startEgress(ctx, { runId, allow, logName: "plain.jsonl", timeoutMs: 30_000 });
        try {
          const out = await through(plain.socket, `GET http://127.0.0.1:${BRIDGE_PORT}/x HTTP/1.1\r\n\r\n`);
          assert.match(out, /decoy$/);
          assert.deepEqual(decoyHits, ["/x"]);
        } finally {
          await plain.stop();
        }
      }
    } finally {
      await routed.stop().catch(() => {});
      await page.shutdown();
      await decoy?.shutdown();
      fwd.close();
      await Deno.remove(env.dir, { recursive: true });
    }
  },
});
