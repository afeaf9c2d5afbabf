/**
 * `spot mcp --http`: the same tools over Streamable HTTP, for a parent that is not spot's parent process. It
 * binds loopback only and, before the SDK's transport sees a request, refuses what a web page or another user
 * could send: a Host that is not this server's loopback name and port (DNS rebinding), an Origin other than
 * this server's, and, when a token is set, a request without `Authorization: Bearer <token>`. Each client
 * that initializes gets a session (its own MCP server over the one set of tools), up to MAX_SESSIONS.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { SpotError } from "../errors.ts";

/** The port a parent's config names when none is given (the dashboard's, plus one). */
export const DEFAULT_MCP_PORT = 7318;
/** The path the protocol is served at; anything else is 404. */
export const MCP_PATH = "/mcp";
/** Open sessions kept; a client past it replaces the one idle longest (a client rarely says goodbye). */
const MAX_SESSIONS = 32;
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

export interface HttpOptions {
  port: number;
  /** Required as `Authorization: Bearer <token>` when set. */
  token?: string;
  signal: AbortSignal;
  log: (line: string) => void;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  usedAt: number;
}

function refuse(status: number, message: string, headers: Record<string, string> = {}): Response {
  const body = { jsonrpc: "2.0", error: { code: -32000, message }, id: null };
  return Response.json(body, { status, headers });
}

/** Equal texts in a time that does not depend on where they first differ. */
function sameSecret(given: string, token: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(token);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i];
  return diff === 0;
}

/** Why a request is refused before the protocol sees it, or null. */
export function guard(req: Request, port: number, token?: string): Response | null {
  const hosts = LOOPBACK_NAMES.map((name) => `${name}:${port}`);
  const host = req.headers.get("host")?.toLowerCase() ?? "";
  if (!hosts.includes(host)) {
    return refuse(403, `Refused Host "${host.slice(0, 100)}": not this loopback server`);
  }
  const origin = req.headers.get("origin");
  if (origin !== null && !hosts.some((h) => origin.toLowerCase() === `http://${h}`)) {
    return refuse(403, `Refused Origin "${origin.slice(0, 100)}": not this loopback server`);
  }
  if (token !== undefined) {
    const given = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
    if (!sameSecret(given, token)) {
      return refuse(401, "Unauthorized: a bearer token is required", { "WWW-Authenticate": "Bearer" });
    }
  }
  return null;
}

/** Serves until `signal` aborts; resolves with where it listened once it has stopped. */
export async function serveHttp(
  create: () => McpServer,
  o: HttpOptions,
): Promise<{ url: string; sessions: number }> {
  const sessions = new Map<string, Session>();
  let opened = 0;
  const evict = async () => {
    const idle = [...sessions.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt)[0];
    if (idle) await idle[1].transport.close().catch(() => {});
  };
  const open = async (req: Request, body: unknown): Promise<Response> => {
    if (sessions.size >= MAX_SESSIONS) await evict();
    const server = create();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        opened++;
        sessions.set(id, { transport, server, usedAt: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      server.close().catch(() => {});
    };
    await server.connect(transport);
    return await transport.handleRequest(req, { parsedBody: body });
  };
  const handle = async (req: Request, port: number): Promise<Response> => {
    if (new URL(req.url).pathname !== MCP_PATH) {
      return refuse(404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    }
    const refused = guard(req, port, o.token);
    if (refused) return refused;
    const id = req.headers.get("mcp-session-id");
    if (id !== null) {
      const session = sessions.get(id);
      if (!session) return refuse(404, "Session not found: initialize again");
      session.usedAt = Date.now();
      return await session.transport.handleRequest(req);
    }
    if (req.method !== "POST") return refuse(400, "Bad request: no session; POST initialize first");
    const body = await req.json().catch(() => undefined);
    if (!isInitializeRequest(body)) return refuse(400, "Bad request: no session; POST initialize first");
    return await open(req, body);
  };
  const listening = Promise.withResolvers<Deno.NetAddr>();
  let server!: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname: "127.0.0.1",
      port: o.port,
      signal: o.signal,
      onListen: (addr) => listening.resolve(addr),
      onError: (error) =>
        refuse(500, `Internal error: ${error instanceof Error ? error.message : String(error)}`),
    }, (req) => handle(req, server.addr.port));
  } catch (error) {
    throw new SpotError(
      "SERVE_FAILED",
      `Cannot serve MCP on 127.0.0.1:${o.port}: ${(error as Error).message}`,
    );
  }
  const addr = await listening.promise;
  const url = `http://127.0.0.1:${addr.port}${MCP_PATH}`;
  o.log(`serving MCP on ${url}${o.token === undefined ? "" : " (bearer token required)"}`);
  await server.finished;
  for (const s of sessions.values()) await s.transport.close().catch(() => {});
  return { url, sessions: opened };
}
