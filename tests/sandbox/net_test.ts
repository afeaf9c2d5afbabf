/**
 * Conformance, NET group: direct egress to host services (TCP, HTTP, UDP,
 * a unix socket) from a scripted worker. Host listeners record whatever
 * reaches them; under bwrap nothing may, under none everything does.
 */
import assert from "node:assert/strict";
import dgram from "node:dgram";
import { join } from "node:path";
import { BACKENDS, episode, expectEscape, lab, readOr, SCRIPT_END, shStep, toolText } from "./harness.ts";

/** Runs inside the worker: tries every way out and writes what happened to net.json. */
const PROBE = `
const [port, udpPort, sock, c] = Deno.args;
const enc = new TextEncoder();
const out: Record<string, string> = {};
const within = <T>(p: Promise<T>) =>
  Promise.race([p, new Promise<T>((_, rej) => setTimeout(() => rej(new Error("timeout")), 2000))]);
try { const s = await within(Deno.connect({ hostname: "127.0.0.1", port: Number(port) })); await s.write(enc.encode(c)); s.close(); out.tcp = "connected"; } catch (e) { out.tcp = String(e); }
try { const r = await fetch("http://127.0.0.1:" + port + "/?d=" + c, { signal: AbortSignal.timeout(2000) }); out.http = String(r.status); } catch (e) { out.http = String(e); }
try { const s = await within(Deno.connect({ transport: "unix", path: sock })); await s.write(enc.encode(c)); s.close(); out.unix = "connected"; } catch (e) { out.unix = String(e); }
const dgram = await import("node:dgram");
await new Promise<void>((done) => { const s = dgram.createSocket("udp4"); s.on("error", (e) => { out.udp = String(e); done(); }); s.send(c, Number(udpPort), "127.0.0.1", (e) => { out.udp = e ? String(e) : "sent"; s.close(); done(); }); });
try { const s = await within(Deno.connect({ hostname: "1.1.1.1", port: 443 })); s.close(); out.external = "connected"; } catch (e) { out.external = String(e); }
await Deno.writeTextFile("net.json", JSON.stringify(out, null, 2));
`;

interface Heard {
  tcp: string[];
  udp: string[];
  unix: string[];
}

function listeners(sock: string) {
  const heard: Heard = { tcp: [], udp: [], unix: [] };
  const tcp = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const unix = Deno.listen({ transport: "unix", path: sock });
  const udp = dgram.createSocket("udp4");
  udp.on("message", (m) => heard.udp.push(m.toString()));
  const ready = new Promise<void>((r) => udp.bind(0, "127.0.0.1", r));
  const accept = async (l: Deno.Listener, into: string[]) => {
    try {
      for await (const conn of l) {
        const buf = new Uint8Array(4096);
        const n = await conn.read(buf).catch(() => null);
        into.push(n ? new TextDecoder().decode(buf.subarray(0, n)) : "(connected)");
        conn.close();
      }
    } catch {
      // closed
    }
  };
  void accept(tcp, heard.tcp);
  void accept(unix, heard.unix);
  return {
    heard,
    ready,
    tcpPort: (tcp.addr as Deno.NetAddr).port,
    udpPort: () => udp.address().port,
    close: () => {
      tcp.close();
      unix.close();
      udp.close();
    },
  };
}

for (const backend of BACKENDS) {
  Deno.test({
    name: `NET group under ${backend}: host TCP, HTTP, UDP and unix-socket services are out of reach`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async (t) => {
      const l = await lab({ files: { "probe_net.ts": PROBE } });
      const sock = join(l.dir, "host-service.sock");
      const host = listeners(sock);
      await host.ready;
      try {
        const cmd =
          `"$SPOT_DENO" run -A --no-config --no-lock probe_net.ts ${host.tcpPort} ${host.udpPort()} ` +
          `${sock} ${l.canary}; echo ${SCRIPT_END}`;
        const ep = await episode(l, backend, [shStep(cmd)]);
        assert.match(toolText(ep), new RegExp(SCRIPT_END), "the probe ran to its end");
        await new Promise((r) => setTimeout(r, 200));
        const seen = JSON.parse(readOr(join(ep.worktree, "net.json"), "{}")) as Record<string, string>;
        assert.ok(seen.tcp, `the probe wrote its results: ${toolText(ep)}`);

        await t.step("NET-01: a TCP connection to a host service on 127.0.0.1 never arrives", () => {
          expectEscape(backend, host.heard.tcp.length > 0, `tcp heard ${JSON.stringify(host.heard.tcp)}`);
        });
        await t.step("NET-01: a UDP datagram to the host never arrives", () => {
          expectEscape(backend, host.heard.udp.length > 0, `udp heard ${JSON.stringify(host.heard.udp)}`);
        });
        await t.step("NET-04: a host unix socket is not reachable", () => {
          expectEscape(backend, host.heard.unix.length > 0, `unix heard ${JSON.stringify(host.heard.unix)}`);
        });
        await t.step("NET-01: no route to an outside address (the namespace has only loopback)", () => {
          if (backend === "bwrap") assert.notEqual(seen.external, "connected", JSON.stringify(seen));
        });
      } finally {
        host.close();
        await l.cleanup();
      }
    },
  });
}
