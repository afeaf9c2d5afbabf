/**
 * One tool call the way every CLI command runs its verb: a fresh context (the config read again, so an edit
 * between calls is seen), an audit line, and one JSON object out. Success is `{ok: true, command, ...result}`,
 * exactly what `spot <command>` prints on stdout; a failure is `{ok: false, error: {code, message, details}}`,
 * what it prints on stderr, returned with `isError` so the parent sees spot's code, never a protocol error.
 */
import { createContext } from "../config/context.ts";
import { isSpotError, SpotError } from "../errors.ts";
import { audited } from "../lifecycle/audit.ts";
import type { SpotContext } from "../store/context.ts";
import { timed } from "../base/timings.ts";

/** What the SDK hands a tool callback that spot uses: the request's cancellation and its progress token. */
export interface CallExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; message?: string };
  }) => Promise<void>;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

export interface CallOptions {
  /** Cancelled with the request (and the server); only verbs the CLI lets a signal stop get it. */
  interruptible?: boolean;
  /** The directory a relative path in the call resolves against (the CLI's working directory). */
  cwd?: string;
  /** Text for `content` instead of the JSON (`report --format parent`, an agent's poll line). */
  text?: (result: object) => string | undefined;
  loadConfig?: boolean;
  /** Only looks: creates none of spot's places (SpotContext.readOnly). */
  readOnly?: boolean;
  /** The call's progress, when the tool sends more than the verb's progress line (agent watch). */
  progress?: Progress;
}

/** The JSON spot prints for an error, with the same fallback for a bug of ours. */
export function errorJson(
  error: unknown,
): { code: string; message: string; details: Record<string, unknown> } {
  if (isSpotError(error)) return error.toJSON();
  const message = error instanceof Error ? error.message : String(error);
  return new SpotError("INTERNAL", `Unexpected failure: ${message}`).toJSON();
}

export function errorResult(error: unknown): ToolResult {
  const body = { ok: false, error: errorJson(error) };
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

export interface Progress {
  send: (text: string) => void;
  /** Resolves once every notification sent so far is written: the result must not overtake them. */
  flush: () => Promise<void>;
}

/** Sends `ctx.progress` lines as MCP progress notifications, in order, when the client asked for them. */
export function progressOf(extra: CallExtra): Progress | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let count = 0;
  let chain = Promise.resolve();
  return {
    send(message: string) {
      const params = { progressToken: token, progress: ++count, message };
      chain = chain.then(() => extra.sendNotification({ method: "notifications/progress", params }))
        .catch(() => {});
    },
    flush: () => chain,
  };
}

export interface Server {
  /** Aborted when the server stops (stdin closed, SIGINT, SIGTERM). */
  signal: AbortSignal;
  cwd: string;
  warn: (text: string) => void;
}

export async function callVerb(
  server: Server,
  extra: CallExtra,
  command: string,
  args: Record<string, unknown>,
  fn: (ctx: SpotContext) => Promise<object>,
  options: CallOptions = {},
): Promise<ToolResult> {
  const progress = options.progress ?? progressOf(extra);
  try {
    const ctx = await timed("context (paths, config)", () =>
      createContext({
        cwd: options.cwd ?? server.cwd,
        signal: options.interruptible ? AbortSignal.any([extra.signal, server.signal]) : undefined,
        progress: progress?.send,
        warn: server.warn,
        loadConfig: options.loadConfig,
        readOnly: options.readOnly,
      }));
    const result = await timed(
      `verb ${command} (whole, children included)`,
      () => audited(ctx, command, { ...args, via: "mcp" }, () => fn(ctx)),
    )
      .finally(() => progress?.flush());
    return okResult(command, result, options.text);
  } catch (error) {
    return errorResult(error);
  }
}

function okResult(
  command: string,
  result: object,
  text?: (result: object) => string | undefined,
): ToolResult {
  const body = { ok: true, command, ...result };
  return {
    content: [{ type: "text", text: text?.(result) ?? JSON.stringify(body) }],
    structuredContent: body,
  };
}

/** A verb without a context (the config verbs read the file themselves): no audit line, same JSON. */
export async function callBare(
  command: string,
  fn: () => Promise<object>,
  text?: (result: object) => string | undefined,
): Promise<ToolResult> {
  try {
    return okResult(command, await fn(), text);
  } catch (error) {
    return errorResult(error);
  }
}
