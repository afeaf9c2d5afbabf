/**
 * A run's files as MCP resources: `spot://runs/<id>/report.md`, `…/verification.json` and the other files a
 * parent reads. The id is checked by the store before any path is built (a `../` id is RUN_NOT_FOUND), and
 * only the names listed here are served, never another file of the run directory.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { createContext } from "../config/context.ts";
import { SpotError } from "../errors.ts";
import { runIndexFor } from "../store/run_index.ts";
import type { Server } from "./call.ts";
import { errorJson } from "./call.ts";

/** The files served, with their MIME types. */
export const RUN_FILES: Record<string, string> = {
  "report.md": "text/markdown",
  "verification.json": "application/json",
  "review-guide.json": "application/json",
  "metrics.json": "application/json",
  "diff.patch": "text/x-diff",
  "worker.log": "text/plain",
};

/** How many runs the listing names: the newest, as `spot list` pages them. */
const LISTED_RUNS = 50;

export function runUri(runId: string, file: string): string {
  return `spot://runs/${runId}/${file}`;
}

async function readRunFile(server: Server, runId: string, file: string): Promise<string> {
  const ctx = await createContext({ cwd: server.cwd, warn: server.warn, loadConfig: false });
  const path = ctx.store.file(runId, file);
  await ctx.store.load(runId);
  try {
    return await Deno.readTextFile(path);
  } catch {
    throw new SpotError("RUN_NOT_FOUND", `Cannot read ${file} of run "${runId}": it has none yet`, {
      details: { runId, file },
    });
  }
}

async function listRunFiles(server: Server, file: string) {
  const ctx = await createContext({ cwd: server.cwd, warn: server.warn, loadConfig: false });
  const index = runIndexFor(ctx.paths);
  await index.refresh();
  const runs = index.summaries({}, { limit: LISTED_RUNS }) as { runId: string }[];
  const resources = [];
  for (const run of runs) {
    const found = await Deno.stat(ctx.store.file(run.runId, file)).catch(() => null);
    if (found) resources.push({ uri: runUri(run.runId, file), name: `${run.runId}/${file}` });
  }
  return { resources };
}

export function registerRunResources(mcp: McpServer, server: Server): void {
  for (const [file, mimeType] of Object.entries(RUN_FILES)) {
    const template = new ResourceTemplate(`spot://runs/{runId}/${file}`, {
      list: () => listRunFiles(server, file),
    });
    mcp.registerResource(`run ${file}`, template, { mimeType, description: `A run's ${file}` }, async (
      uri,
      variables,
    ) => {
      const runId = String(variables.runId);
      try {
        return { contents: [{ uri: uri.href, mimeType, text: await readRunFile(server, runId, file) }] };
      } catch (error) {
        // Resources have no isError: the protocol error carries spot's JSON in its message.
        throw new Error(JSON.stringify({ ok: false, error: errorJson(error) }));
      }
    });
  }
}
