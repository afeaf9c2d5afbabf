/**
 * Named background agents as tools (cli/commands_agent.ts): start, poll, peek, ls, watch, stop and discard, each
 * the agents/ verb the CLI calls. `content` carries the seed's text lines a parent reads; the structured
 * result is what `--json` prints. `watch` sends each changed line as a progress notification.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { lazy } from "../base/lazy.ts";
import { type CallExtra, callVerb, progressOf, type Server } from "./call.ts";
import { inputFile } from "./inputs.ts";
import { agentName, cwd, document, output, sandbox } from "./schema.ts";

type Agents = typeof import("../agents/mod.ts");
const agents = () => lazy<Agents>("../agents/mod.ts", import.meta.url);

export function registerAgentTools(mcp: McpServer, server: Server): void {
  mcp.registerTool("spot_agent_start", {
    description: "Start a named background agent on a contract (task) or a free-form brief; returns at once",
    inputSchema: z.object({
      name: agentName,
      task: document("the task contract as an object, checked as `spot agent start --task`"),
      taskFile: z.string().optional(),
      brief: z.string().optional().describe("free-form brief: a file, or the text itself"),
      profile: z.string().optional(),
      model: z.string().optional().describe("model override (for replay: the episode file)"),
      cwd: cwd.describe("where the brief works (a git repository); relative paths resolve here"),
      sandbox,
    }),
    outputSchema: output,
  }, (a, extra) =>
    callVerb(server, extra as CallExtra, "agent start", a, async (ctx) => {
      const task = inputFile(ctx, "task", { object: a.task, file: a.taskFile }, false);
      return (await agents()).startAgent(ctx, a.name, {
        task,
        brief: a.brief,
        profile: a.profile,
        model: a.model,
        cwd: a.cwd,
        sandbox: a.sandbox,
      });
    }, { cwd: a.cwd }));

  mcp.registerTool("spot_agent_poll", {
    description: "One status line for an agent (STATUS=OK|FAIL … or RUNNING …); a settled line never changes",
    inputSchema: z.object({ name: agentName }),
    outputSchema: output,
  }, ({ name }, extra) =>
    callVerb(
      server,
      extra as CallExtra,
      "agent poll",
      { name },
      async (ctx) => (await agents()).pollAgent(ctx, name),
      { text: (r) => String(r.line) },
    ));

  mcp.registerTool("spot_agent_peek", {
    description: "Four lines on what an agent is doing: run, tools, tokens, last text",
    inputSchema: z.object({ name: agentName }),
    outputSchema: output,
  }, ({ name }, extra) =>
    callVerb(
      server,
      extra as CallExtra,
      "agent peek",
      { name },
      async (ctx) => (await agents()).peekAgent(ctx, name),
      { text: (r) => (r.lines as string[]).join("\n") },
    ));

  mcp.registerTool(
    "spot_agent_ls",
    {
      description: "Every agent with its poll line (names whose run is gone are pruned)",
      inputSchema: z.object({}),
      outputSchema: output,
    },
    (_a, extra) =>
      callVerb(server, extra as CallExtra, "agent ls", {}, async (ctx) => (await agents()).listAgents(ctx), {
        text: (r) => {
          const list = r.agents as { name: string; line: string }[];
          return list.length === 0 ? "no agents" : list.map((a) => `${a.name} ${a.line}`).join("\n");
        },
      }),
  );

  mcp.registerTool("spot_agent_watch", {
    description: "Poll the named agents until none runs; each changed line is a progress notification. " +
      "A provider wall on one stops its siblings here",
    inputSchema: z.object({
      names: z.array(agentName).min(1),
      interval: z.number().positive().optional().describe("seconds between sweeps"),
    }),
    outputSchema: output,
  }, ({ names, interval }, extra) => {
    const progress = progressOf(extra as CallExtra);
    const printed: string[] = [];
    const print = (line: string) => {
      printed.push(line);
      progress?.send(line);
    };
    return callVerb(
      server,
      extra as CallExtra,
      "agent watch",
      { names, interval },
      async (ctx) => (await agents()).watchAgents(ctx, names, { intervalSeconds: interval, print }),
      { interruptible: true, progress, text: () => printed.join("\n") },
    );
  });

  mcp.registerTool("spot_agent_discard", {
    description:
      "Stop an agent and drop its run (spot agent discard): diff kept in diff.patch, worktree and " +
      "branch removed, run slot freed, name unregistered",
    inputSchema: z.object({ name: agentName }),
    outputSchema: output,
  }, ({ name }, extra) =>
    callVerb(
      server,
      extra as CallExtra,
      "agent discard",
      { name },
      async (ctx) => (await agents()).discardNamedAgent(ctx, name),
    ));

  mcp.registerTool("spot_agent_stop", {
    description:
      "Stop an agent's processes, end the turn they cut short (the run ends failed, AGENT_STOPPED), " +
      "and unregister its name (harmless to repeat); the worktree stays",
    inputSchema: z.object({ name: agentName }),
    outputSchema: output,
  }, ({ name }, extra) =>
    callVerb(
      server,
      extra as CallExtra,
      "agent stop",
      { name },
      async (ctx) => (await agents()).stopNamedAgent(ctx, name),
    ));
}
