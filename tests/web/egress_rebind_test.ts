/**
 * The egress proxy against DNS that answers a private address: a listed *name* that resolves to loopback (what
 * a rebinding domain or a wildcard-DNS service under a `*.` entry does) is refused and recorded, while the same
 * server listed by its address is reached. The name comes from /etc/hosts (a second name for 127.0.0.1, as
 * container images have); without one the test is ignored, and `sandbox/egress_rules_test.ts` still holds the
 * rule.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createContext } from "../../config/context.ts";
import { startEgress } from "../../isolation/egress.ts";
import { spotEnv } from "../helpers.ts";
import { through } from "./proxy_client.ts";

/** A name other than localhost that /etc/hosts maps to 127.0.0.1, if the machine has one. */
function loopbackAlias(): string | null {
  const hosts = (() => {
    try {
      return Deno.readTextFileSync("/etc/hosts");
    } catch {
      return "";
    }
  })();
  for (const line of hosts.split("\n")) {
    const [ip, ...names] = line.replace(/#.*/, "").trim().split(/\s+/);
    if (ip !== "127.0.0.1") continue;
    const name = names.find((n) => n && n !== "localhost" && /^[a-z0-9.-]+$/i.test(n));
    if (name) return name.toLowerCase();
  }
  return null;
}

const alias = loopbackAlias();

Deno.test({
  name: "egress: a listed name that resolves to loopback is refused; the address listed as itself is reached",
  ignore: alias === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const env = await spotEnv({});
    const ctx = await createContext({ env: (k) => env.env[k] });
    const runId = "rebind-1";
    await Deno.mkdir(ctx.store.dir(runId), { recursive: true });
    const hits: string[] = [];
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (r) => {
      hits.push(new URL(r.url).pathname);
      return new Response("host service");
    });
    const port = server.addr.port;
    const egress = await startEgress(ctx, {
      runId,
      allow: [`${alias}:${port}`, `127.0.0.1:${port}`],
      logName: "worker-web.jsonl",
      timeoutMs: 30_000,
    });
    try {
      const byName = await through(egress.socket, `GET http://${alias}:${port}/by-name HTTP/1.1\r\n\r\n`);
      assert.match(byName, /^HTTP\/1\.1 403/, byName);
      assert.match(byName, /resolved to 127\.0\.0\.1, the host's own/);
      const byAddress = await through(
        egress.socket,
        `GET http://127.0.0.1:${port}/by-address HTTP/1.1\r\n\r\n`,
      );
      assert.match(byAddress, /host service$/, byAddress);
      assert.deepEqual(hits, ["/by-address"], "the name reached the host's service");
      await egress.stop();
      const log = (await Deno.readTextFile(join(ctx.store.dir(runId), "worker-web.jsonl"))).trim().split("\n")
        .map((l) => JSON.parse(l));
      assert.deepEqual(log.filter((l) => l.decision !== "closed").map((l) => [l.decision, l.host]), [
        ["refused", alias],
        ["allowed", "127.0.0.1"],
      ]);
    } finally {
      await egress.stop().catch(() => {});
      await server.shutdown();
      await Deno.remove(env.dir, { recursive: true });
    }
  },
});
