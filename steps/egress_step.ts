/**
 * Step program: the egress proxy. It listens on a unix socket that is bound
 * into a sandbox (reached there through the bridge on 127.0.0.1), reads each
 * connection's proxy request line, and lets it out only to an allowlisted
 * `host:port`: a CONNECT becomes a byte tunnel (TLS stays end to end), a
 * plain-HTTP request is passed on in origin form. With a provider route (a
 * research turn behind the forwarder), a request for the forwarder's inside
 * address is carried to the forwarder's unix socket, which checks it as it
 * checks every request. Every decision is logged.
 * Its spec comes on stdin (read_spec.ts).
 */
import { decide, parseProxyRequest, type ProviderRoute, resolvedAllowed } from "../sandbox/egress_rules.ts";
import { watchParent } from "./emit.ts";
import { readSpec } from "./read_spec.ts";

export interface EgressSpec {
  socketPath: string;
  /** `host:port` entries (a leading `*.` for subdomains). */
  allow: string[];
  logFile: string;
  /** The forwarder's inside address and its unix socket on the host, where requests for it are carried. */
  providerRoute?: ProviderRoute & { socket: string };
}

export type EgressMessage =
  | { t: "listening"; socket: string }
  | { t: "summary"; connections: number; allowed: number; refused: number; provider: number };

/** A request head larger than this is not a proxy request. */
const MAX_HEAD_BYTES = 16 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
// No spec: spot gave the step up before its work was ready.
const spec = (await readSpec<EgressSpec>()) ?? Deno.exit(0);
const log = await Deno.open(spec.logFile, { create: true, append: true, mode: 0o600 });
const totals = { connections: 0, allowed: 0, refused: 0, provider: 0 };

function say(message: EgressMessage): void {
  try {
    Deno.stdout.writeSync(encoder.encode(JSON.stringify(message) + "\n"));
  } catch {
    // The parent is gone; the watcher ends us.
  }
}

function record(entry: Record<string, unknown>): void {
  log.writeSync(encoder.encode(JSON.stringify({ at: new Date().toISOString(), ...entry }) + "\n"));
}

/** Reads until the end of the request head; returns the head and whatever followed it. */
async function readHead(conn: Deno.Conn): Promise<{ head: string; rest: Uint8Array } | null> {
  const buf = new Uint8Array(MAX_HEAD_BYTES);
  let size = 0;
  while (size < buf.length) {
    const n = await conn.read(buf.subarray(size));
    if (n === null) return null;
    size += n;
    const text = decoder.decode(buf.subarray(0, size));
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) {
      const headBytes = encoder.encode(text.slice(0, end + 4)).length;
      return { head: text.slice(0, end + 4), rest: buf.slice(headBytes, size) };
    }
  }
  return null;
}

async function reply(conn: Deno.Conn, status: string, reason: string): Promise<void> {
  const body = `spot egress proxy: ${reason}\n`;
  await conn.write(encoder.encode(
    `HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\ncontent-length: ${encoder.encode(body).length}\r\n` +
      `connection: close\r\n\r\n${body}`,
  )).catch(() => {});
}

/** Carries bytes both ways; the client finishing its side half-closes toward the upstream. */
async function pipeBoth(client: Deno.Conn, upstream: Deno.TcpConn | Deno.UnixConn): Promise<void> {
  const up = client.readable.pipeTo(upstream.writable, { preventClose: true })
    .then(() => upstream.closeWrite()).catch(() => {});
  await upstream.readable.pipeTo(client.writable, { preventClose: true }).catch(() => {});
  await Promise.race([up, new Promise((r) => setTimeout(r, 100))]);
  try {
    upstream.close();
  } catch {
    // already closed
  }
}

async function handle(client: Deno.Conn): Promise<void> {
  totals.connections++;
  const started = Date.now();
  try {
    const read = await readHead(client);
    if (!read) return;
    const [requestLine, ...headerLines] = read.head.split("\r\n");
    const parsed = parseProxyRequest(requestLine);
    const decision = parsed.ok ? decide(parsed.target, spec.allow, spec.providerRoute) : "refused";
    if (!parsed.ok || decision === "refused") {
      totals.refused++;
      const reason = parsed.ok
        ? `${parsed.target.host}:${parsed.target.port} is not on the allowlist`
        : parsed.reason;
      record({ decision: "refused", line: requestLine.slice(0, 200), reason });
      await reply(client, "403 Forbidden", reason);
      return;
    }
    const { host, port, method, originLine } = parsed.target;
    const route = decision === "provider" ? spec.providerRoute : undefined;
    let upstream: Deno.TcpConn | Deno.UnixConn;
    try {
      upstream = route
        ? await Deno.connect({ transport: "unix", path: route.socket })
        : await Deno.connect({ hostname: host, port });
    } catch (error) {
      totals.refused++;
      record({ decision: "unreachable", host, port, reason: (error as Error).message.split("\n")[0] });
      await reply(client, "502 Bad Gateway", `cannot reach ${host}:${port}`);
      return;
    }
    const peer = route ? null : (upstream.remoteAddr as Deno.NetAddr).hostname;
    if (peer !== null && !resolvedAllowed(host, peer)) {
      upstream.close();
      totals.refused++;
      const reason = `${host} resolved to ${peer}, the host's own or a link-local address: a name may not ` +
        "lead there (name the address itself, in the URL and the list, to reach it)";
      record({ decision: "refused", host, port, reason });
      await reply(client, "403 Forbidden", reason);
      return;
    }
    totals[decision]++;
    record({ decision, method, host, port });
    if (method === "CONNECT") {
      await client.write(encoder.encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
    } else {
      // Hop-by-hop headers stay here. One request per connection: a second one, for any host, would
      // otherwise ride this tunnel to the first host.
      const headers = headerLines.filter((l) =>
        l && !/^(proxy-connection|proxy-authorization|connection|keep-alive):/i.test(l)
      );
      await upstream.write(
        encoder.encode([originLine, ...headers, "connection: close", "", ""].join("\r\n")),
      );
    }
    if (read.rest.length > 0) await upstream.write(read.rest);
    await pipeBoth(client, upstream);
    record({ decision: "closed", host, port, durationMs: Date.now() - started });
  } finally {
    try {
      client.close();
    } catch {
      // already closed
    }
  }
}

const listener = Deno.listen({ transport: "unix", path: spec.socketPath });
say({ t: "listening", socket: spec.socketPath });

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  listener.close();
  say({ t: "summary", ...totals });
  log.close();
  Deno.exit(0);
}
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) Deno.addSignalListener(sig, stop);
watchParent(stop);
for await (const conn of listener) void handle(conn);
