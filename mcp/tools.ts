/**
 * Every verb of the table that shows over MCP, as a tool: `spot_<name>` (`spot_agent_start` for
 * `agent start`), its input schema built from the verb's fields (table/zod.ts), its annotations, and a call
 * of the same function the CLI calls, so a call the CLI refuses is refused here with the same code.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  type AnyVerb,
  COMMON_ERRORS,
  type Field,
  looksFor,
  toolName,
  type VerbIo,
  verbOn,
  VERBS,
} from "../table/mod.ts";
import { inputSchema } from "../table/zod.ts";
import { callBare, type CallExtra, callVerb, progressOf, type Server } from "./call.ts";

/** Every tool returns the CLI's JSON: `ok`, `command` and the verb's fields (or `error` when `ok` is false). */
const output = z.looseObject({
  ok: z.boolean(),
  command: z.string().optional(),
  runId: z.string().nullable().optional(),
});

/** The tool's description: what it does, more for a caller, the CLI verb, the error codes it can return. */
export function toolDescription(v: AnyVerb): string {
  const about = v.about ? ` ${v.about}.` : "";
  const codes = [...new Set([...v.errors, ...COMMON_ERRORS])].join(", ");
  return `${v.summary}.${about} (spot ${v.name}) Errors: ${codes}`;
}

/** The input as given, with each field's default filled in where the schema has none (it has them all). */
function withDefaults(v: AnyVerb, args: Record<string, unknown>): Record<string, unknown> {
  const input = { ...args };
  for (const [key, field] of Object.entries(v.input as Record<string, Field>)) {
    if (input[key] === undefined && field.kind === "flag" && field.mcpDefault !== undefined) {
      input[key] = field.mcpDefault;
    }
  }
  return input;
}

function call(server: Server, v: AnyVerb, args: Record<string, unknown>, extra: CallExtra) {
  const input = withDefaults(v, args);
  const progress = progressOf(extra);
  const printed: string[] = [];
  const io: VerbIo = {
    face: "mcp",
    print: (line) => {
      printed.push(line);
      progress?.send(line);
    },
    note: () => {},
    log: (line) => server.warn(line),
    env: (name) => Deno.env.get(name),
    warn: server.warn,
  };
  const text = (result: object) =>
    printed.length > 0 ? printed.join("\n") : v.text?.(result as never, input as never);
  if ("bare" in v) return callBare(v.name, () => v.bare(input as never, io), text);
  if (!("run" in v)) throw new Error(`Verb "${v.name}" is the CLI's own: no tool runs it`);
  const cwd = typeof input.cwd === "string" ? input.cwd : undefined;
  return callVerb(server, extra, v.name, input, (ctx) => v.run(ctx, input as never, io), {
    interruptible: v.annotations?.long === true,
    cwd,
    loadConfig: v.loadConfig,
    readOnly: looksFor(v, input as Record<string, unknown>),
    progress,
    text,
  });
}

export function registerTools(mcp: McpServer, server: Server): void {
  for (const v of VERBS as readonly AnyVerb[]) {
    if (!verbOn(v, "mcp") || "host" in v) continue;
    const a = v.annotations ?? {};
    mcp.registerTool(toolName(v), {
      title: v.summary,
      description: toolDescription(v),
      inputSchema: inputSchema(v, "mcp"),
      outputSchema: output,
      annotations: {
        readOnlyHint: a.readOnly === true,
        destructiveHint: a.destructive === true,
        idempotentHint: a.idempotent === true,
        openWorldHint: false,
      },
    }, (args: Record<string, unknown>, extra: unknown) => call(server, v, args, extra as CallExtra));
  }
}
