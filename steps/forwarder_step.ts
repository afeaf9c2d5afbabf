/**
 * Step program: the provider forwarder. It listens on a unix socket that is
 * bound into the worker's sandbox, checks each request against the
 * provider's API routes, methods and size caps, swaps the per-turn
 * placeholder for the real key (held only here), forwards over the network
 * it alone may use, and logs and meters every request. Its spec comes on
 * stdin (read_spec.ts).
 */
import {
  basePath,
  downstreamHeaders,
  presentedKey,
  type ProviderApi,
  refuseRoute,
  upstreamHeaders,
} from "../sandbox/provider_routes.ts";
import { redactStream } from "../sandbox/key_redaction.ts";
import { watchParent } from "./emit.ts";
import { readSpec } from "./read_spec.ts";

export interface ForwarderSpec {
  socketPath: string;
  /** The provider's base URL, as the profile gives it. */
  upstream: string;
  api: ProviderApi;
  /** The env var that holds the real key (the only one this step may read), or null for a keyless provider. */
  keyEnv: string | null;
  /** What the worker was given instead of the key; a request without it is refused. */
  placeholder: string;
  logFile: string;
  maxRequestBytes: number;
  maxResponseBytes: number;
}

export type ForwarderMessage =
  | { t: "listening"; socket: string }
  | {
    t: "summary";
    requests: number;
    forwarded: number;
    refused: number;
    requestBytes: number;
    responseBytes: number;
  };

const encoder = new TextEncoder();
// No spec: spot gave the step up before its work was ready.
const spec = (await readSpec<ForwarderSpec>()) ?? Deno.exit(0);
const realKey = spec.keyEnv ? Deno.env.get(spec.keyEnv) ?? null : null;
const base = basePath(spec.upstream);
const origin = new URL(spec.upstream).origin;
const log = await Deno.open(spec.logFile, { create: true, append: true, mode: 0o600 });
const totals = { requests: 0, forwarded: 0, refused: 0, requestBytes: 0, responseBytes: 0 };

function say(message: ForwarderMessage): void {
  try {
    Deno.stdout.writeSync(encoder.encode(JSON.stringify(message) + "\n"));
  } catch {
    // The parent is gone; the watcher ends us.
  }
}

function record(entry: Record<string, unknown>): void {
  log.writeSync(encoder.encode(JSON.stringify({ at: new Date().toISOString(), ...entry }) + "\n"));
}

async function readCapped(request: Request): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > spec.maxRequestBytes) return null;
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.length;
    if (size > spec.maxRequestBytes) return null;
    chunks.push(chunk);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  return body;
}

/** Passes the provider's bytes through, counting them, and cuts the stream at the cap. */
function capped(body: ReadableStream<Uint8Array>, done: (bytes: number, cut: boolean) => void) {
  let bytes = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.length;
        if (bytes > spec.maxResponseBytes) {
          done(bytes, true);
          controller.error(new Error("response over the forwarder's cap"));
          return;
        }
        controller.enqueue(chunk);
      },
      flush: () => done(bytes, false),
    }),
  );
}

async function handle(request: Request): Promise<Response> {
  const started = Date.now();
  const url = new URL(request.url);
  const entry = { method: request.method, path: url.pathname, queryKeys: [...url.searchParams.keys()] };
  totals.requests++;
  const refuse = (status: number, reason: string) => {
    totals.refused++;
    record({ ...entry, decision: "refused", status, reason, durationMs: Date.now() - started });
    return new Response(JSON.stringify({ error: { message: `spot forwarder: ${reason}` } }), {
      status,
      headers: { "content-type": "application/json" },
    });
  };
  const why = refuseRoute(spec.api, base, request.method, url.pathname);
  if (why) return refuse(403, why);
  if (presentedKey(request.headers, url) !== spec.placeholder) {
    return refuse(401, "missing or wrong credential");
  }
  const body = await readCapped(request);
  if (body === null) return refuse(413, `request body over ${spec.maxRequestBytes} bytes`);
  totals.requestBytes += body.length;
  const target = new URL(origin + url.pathname);
  for (const [k, v] of url.searchParams) target.searchParams.append(k, k === "key" ? realKey ?? "" : v);
  let upstream: Response;
  try {
    upstream = await fetch(target, {
      method: request.method,
      headers: upstreamHeaders(request.headers, realKey),
      body: request.method === "GET" ? undefined : body,
      redirect: "manual",
    });
  } catch (error) {
    return refuse(502, `provider unreachable: ${(error as Error).message.split("\n")[0]}`);
  }
  totals.forwarded++;
  const finish = (bytes: number, cut: boolean) => {
    totals.responseBytes += bytes;
    record({
      ...entry,
      decision: "forwarded",
      status: upstream.status,
      requestBytes: body.length,
      responseBytes: bytes,
      truncated: cut,
      durationMs: Date.now() - started,
    });
  };
  if (!upstream.body) finish(0, false);
  // Nothing that comes back may carry the real key: a redirect keeping `?key=`, an error quoting the header.
  const answer = upstream.body
    ? capped(upstream.body, finish).pipeThrough(redactStream(realKey, spec.placeholder))
    : null;
  return new Response(answer, {
    status: upstream.status,
    headers: downstreamHeaders(upstream.headers, realKey, spec.placeholder),
  });
}

const server = Deno.serve({
  path: spec.socketPath,
  onListen: () => say({ t: "listening", socket: spec.socketPath }),
}, handle);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.shutdown().catch(() => {});
  say({ t: "summary", ...totals });
  log.close();
  Deno.exit(0);
}
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) Deno.addSignalListener(sig, () => void stop());
watchParent(() => void stop());
await server.finished;
