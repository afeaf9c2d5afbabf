/** A real MCP client over stdio: the SDK's Client spawning `deno run … cli.ts mcp` in a test's environment. */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";
import { CLI, ROOT, type SpotEnv } from "../helpers.ts";

export interface ToolCall {
  isError: boolean;
  json: Record<string, unknown>;
  text: string;
  progress: string[];
}

export interface SpotClient {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<ToolCall>;
  close(): Promise<void>;
}

export const SERVER_ARGV = [
  "run",
  "--allow-all",
  "--no-prompt",
  "--config",
  join(ROOT, "deno.json"),
  CLI,
  "mcp",
];

export async function connect(env: SpotEnv, cwd: string): Promise<SpotClient> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: SERVER_ARGV,
    env: env.env,
    cwd,
    stderr: "pipe",
  });
  const client = new Client({ name: "spot-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    async call(name, args = {}) {
      const progress: string[] = [];
      const r = await client.callTool({ name, arguments: args }, undefined, {
        onprogress: (p) => progress.push(String(p.message ?? p.progress)),
        timeout: 240_000,
        resetTimeoutOnProgress: true,
      });
      const content = r.content as { type: string; text: string }[];
      return {
        isError: r.isError === true,
        json: (r.structuredContent ?? {}) as Record<string, unknown>,
        text: content.map((c) => c.text).join("\n"),
        progress,
      };
    },
    close: () => client.close(),
  };
}
