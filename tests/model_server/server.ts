/**
 * The scripted model server: one Deno HTTP server on 127.0.0.1 and a random
 * port that speaks OpenAI chat completions, OpenAI Responses, Anthropic
 * Messages and Gemini, plays one scenario, records every request, and tallies
 * the usage it reported so a test can compare it with what spot recorded.
 */
import type { Usage } from "../../schemas/events.ts";
import { anthropicUsage, plainUsage } from "./usage.ts";
import { messagesAnswer, messagesTurn } from "./anthropic.ts";
import { type Dialect, errorReply } from "./errors.ts";
import { geminiAnswer, geminiTurn } from "./gemini.ts";
import { chatAnswer, chatTurn } from "./openai_chat.ts";
import { responsesAnswer, responsesTurn } from "./openai_responses.ts";
import { decide, type Reply, type Scenario, type ScriptOptions, tokensFor, type Turn } from "./script.ts";
import { type Encoded, isObject } from "./sse.ts";

/** Short enough that every CLI's retries finish in seconds, long enough to be a real wait. */
const DEFAULT_RETRY_AFTER_MS = 50;

export interface ModelServerOptions {
  scenario?: Scenario;
  /** The worktree, so write tools that want absolute paths get one. */
  workdir?: string;
  file?: string;
  content?: string;
  /** The final answer after the write (default FINAL_TEXT). */
  finalText?: string;
  /** Call the CLI's web fetch tool instead of writing (script.ts). */
  fetch?: ScriptOptions["fetch"];
  retryAfterMs?: number;
  /** Decides every answer instead of the write script: a parent agent's model, say (tests/parent/). */
  brain?: (turn: Turn) => Reply;
}

export interface RecordedRequest {
  atMs: number;
  method: string;
  path: string;
  dialect: Dialect | null;
  model: string;
  tools: string[];
  hasToolResult: boolean;
  /** The credential the client sent, whichever header it used. */
  key: string | null;
  status: number;
  /** The JSON body of a POST, so a test can see what settings reached the provider. */
  body?: Record<string, unknown>;
}

export interface ModelServer {
  readonly url: string;
  readonly port: number;
  scenario: Scenario;
  workdir?: string;
  readonly requests: RecordedRequest[];
  /** Normalized usage of every answer sent (non-cached input, cache read, cache write, output). */
  usage(): Usage;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

type Route = { dialect: Dialect; turn: Turn; streaming: boolean; answer: typeof chatAnswer };

function route(path: string, body: Record<string, unknown>): Route | null {
  const streaming = body.stream === true;
  if (path.endsWith("/chat/completions")) {
    return { dialect: "openai", turn: chatTurn(body), streaming, answer: chatAnswer };
  }
  if (path.endsWith("/responses")) {
    return { dialect: "openai", turn: responsesTurn(body), streaming, answer: responsesAnswer };
  }
  if (path.endsWith("/messages")) {
    return { dialect: "anthropic", turn: messagesTurn(body), streaming, answer: messagesAnswer };
  }
  const gemini = /\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(path);
  if (gemini) {
    const streams = gemini[2] === "streamGenerateContent";
    return { dialect: "gemini", turn: geminiTurn(body, gemini[1]), streaming: streams, answer: geminiAnswer };
  }
  return null;
}

function keyOf(headers: Headers): string | null {
  const bearer = headers.get("authorization")?.replace(/^Bearer\s+/i, "");
  return bearer ?? headers.get("x-api-key") ?? headers.get("x-goog-api-key");
}

function respond(encoded: Encoded, status = 200, headers: Record<string, string> = {}): Response {
  const body = encoded.chunks.join("");
  return new Response(body, { status, headers: { "content-type": encoded.contentType, ...headers } });
}

export function startModelServer(options: ModelServerOptions = {}): ModelServer {
  const started = Date.now();
  const closing = new AbortController();
  const requests: RecordedRequest[] = [];
  let total: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  const script = {
    file: options.file ?? "hello.txt",
    content: options.content ?? "hello from the scripted model\n",
    ...(options.finalText === undefined ? {} : { finalText: options.finalText }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  const retryAfterMs = options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;

  /** Resolves when the server closes; a silent provider holds every request until then. */
  const untilClosed = () =>
    new Promise<void>((resolve) => {
      if (closing.signal.aborted) return resolve();
      closing.signal.addEventListener("abort", () => resolve(), { once: true });
    });

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const record: RecordedRequest = {
      atMs: Date.now() - started,
      method: request.method,
      path: url.pathname + url.search,
      dialect: null,
      model: "",
      tools: [],
      hasToolResult: false,
      key: keyOf(request.headers),
      status: 404,
    };
    requests.push(record);
    const path = url.pathname;
    if (request.method === "GET" && path.endsWith("/models")) {
      record.status = 200;
      return Response.json({ object: "list", data: [{ id: "scripted-model", object: "model" }] });
    }
    if (request.method !== "POST") return new Response(null, { status: 404 });
    if (path.endsWith("/count_tokens") || path.endsWith(":countTokens")) {
      record.status = 200;
      return Response.json({ input_tokens: 10, totalTokens: 10 });
    }
    const body = await request.json().catch(() => null);
    const routed = isObject(body) ? route(path, body) : null;
    if (!routed) return Response.json({ error: { message: `No route for ${path}` } }, { status: 404 });
    Object.assign(record, {
      body,
      dialect: routed.dialect,
      model: routed.turn.model,
      tools: routed.turn.tools.map((t) => t.name),
      hasToolResult: routed.turn.hasToolResult,
    });
    const scenario = server.scenario;
    if (scenario === "silent") {
      await untilClosed();
      record.status = 0;
      return new Response(null, { status: 503 });
    }
    const failure = errorReply(routed.dialect, scenario, routed.turn.model, retryAfterMs);
    if (failure) {
      record.status = failure.status;
      return Response.json(failure.body, { status: failure.status, headers: failure.headers });
    }
    const reply = options.brain?.(routed.turn) ?? decide(routed.turn, { ...script, workdir: server.workdir });
    const tokens = tokensFor(routed.turn, reply);
    const encoded = routed.answer(reply, tokens, routed.turn.model, routed.streaming);
    record.status = 200;
    if (scenario === "stall") {
      const first = new TextEncoder().encode(encoded.chunks[0]);
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(first);
          await untilClosed();
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    const used = routed.dialect === "anthropic" ? anthropicUsage(tokens) : plainUsage(tokens);
    total = {
      input: total.input + used.input,
      output: total.output + used.output,
      cacheRead: total.cacheRead + used.cacheRead,
      cacheWrite: total.cacheWrite + used.cacheWrite,
    };
    return respond(encoded);
  }

  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handle);
  const port = http.addr.port;
  const close = async () => {
    closing.abort();
    await http.shutdown();
  };
  const server: ModelServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    scenario: options.scenario ?? "success",
    workdir: options.workdir,
    requests,
    usage: () => ({ ...total }),
    close,
    [Symbol.asyncDispose]: close,
  };
  return server;
}
