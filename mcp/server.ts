/**
 * `spot mcp`: the loop over the Model Context Protocol on stdin/stdout, for a parent agent that speaks MCP
 * rather than running commands. Stdout carries only the protocol; warnings go to stderr. The server ends
 * when its client closes stdin or on SIGINT/SIGTERM, cancelling the calls in flight the way an interrupted
 * CLI verb is cancelled (the run is left for `spot recover`).
 */
import process from "node:process";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// Read here, not through cli/version.ts: cli/ loads this folder, so mcp/ must not import cli/.
import config from "../deno.json" with { type: "json" };
import type { Server } from "./call.ts";
import { registerTools } from "./tools.ts";
import { lazy } from "../base/lazy.ts";
import { registerRunResources } from "./resources.ts";

const INSTRUCTIONS =
  "spot hands a bounded coding task to a cheap worker CLI and verifies the result itself. " +
  "Loop: spot_parent_meter (output: a file, before planning) → spot_prepare (task: the contract, usageStart) → " +
  "spot_run (returns at once; spot_agent_watch follows it, or detach: false blocks) → spot_verify → " +
  "spot_self_review (optional) → read what spot_diff with hunks: true prints → spot_approve (a review bound to " +
  "diffSha256) or spot_revise → spot_integrate → spot_report with format parent. Named agents: spot_agent_*; " +
  "task graphs: spot_job_*. Every tool takes what `spot <verb>` takes (runId for --id). Errors carry spot's " +
  "stable codes; nothing is pushed.";

/** The MCP server over spot's verbs (tests connect it to an in-memory transport). */
export function createMcpServer(server: Server): McpServer {
  const mcp = new McpServer({ name: "spot", version: config.version }, {
    instructions: INSTRUCTIONS,
    capabilities: { tools: {}, resources: {}, logging: {} },
  });
  registerTools(mcp, server);
  registerRunResources(mcp, server);
  return mcp;
}

export interface ServeOptions {
  warn: (text: string) => void;
  /** A server's log line (stderr). */
  log: (line: string) => void;
  /** Streamable HTTP on loopback instead of stdio. */
  http?: boolean;
  port?: number;
  /** The bearer token HTTP requires (default: SPOT_MCP_TOKEN when set). */
  token?: string;
}

/** What `spot mcp --http` served, printed as its JSON when it stops (stdio prints nothing: stdout is the protocol's). */
export interface HttpServed {
  url: string;
  sessions: number;
  stopped: true;
}

/** Serves until the client goes away (stdio) or a signal arrives. */
export async function serveMcp(options: ServeOptions): Promise<HttpServed | null> {
  const stop = new AbortController();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  const onSignal = () => stop.abort();
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  const server = { signal: stop.signal, cwd: Deno.cwd(), warn: options.warn };
  try {
    if (!options.http) {
      await serveStdio(createMcpServer(server), stop);
      return null;
    }
    const token = options.token ?? (Deno.env.get("SPOT_MCP_TOKEN") || undefined);
    const { serveHttp, DEFAULT_MCP_PORT } = await lazy<typeof import("./http.ts")>(
      "./http.ts",
      import.meta.url,
    );
    const port = options.port ?? DEFAULT_MCP_PORT;
    const served = await serveHttp(() => createMcpServer(server), {
      port,
      token,
      signal: stop.signal,
      log: options.log,
    });
    return { ...served, stopped: true };
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
  }
}

async function serveStdio(mcp: McpServer, stop: AbortController): Promise<void> {
  const closed = Promise.withResolvers<void>();
  stop.signal.addEventListener("abort", () => closed.resolve(), { once: true });
  const transport = new StdioServerTransport(process.stdin, process.stdout);
  transport.onclose = () => stop.abort();
  // The SDK's stdio transport does not notice the end of stdin by itself: a client that exits ends us.
  process.stdin.once("end", () => stop.abort());
  await mcp.connect(transport);
  try {
    await closed.promise;
  } finally {
    await mcp.close().catch(() => {});
  }
}
