/** The Anthropic Messages dialect (claude, pi): request → Turn, Reply → body or SSE. */
import type { Reply, Tokens, Turn } from "./script.ts";
import { type Encoded, isObject, json, list, sse, stream } from "./sse.ts";

export function messagesTurn(body: Record<string, unknown>): Turn {
  const tools = list(body.tools).map((t) => ({
    name: String(t.name ?? ""),
    kind: "function" as const,
    schema: isObject(t.input_schema) ? t.input_schema : undefined,
  }));
  const results = list(body.messages).flatMap((m) => list(m.content).filter((c) => c.type === "tool_result"));
  const toolResults = results.map((r) =>
    typeof r.content === "string" ? r.content : list(r.content).map((c) => String(c.text ?? "")).join("\n")
  );
  return { model: String(body.model ?? ""), tools, hasToolResult: results.length > 0, toolResults };
}

/** Anthropic counts input without the cached and cache-written parts. */
function usage(tokens: Tokens, output: number) {
  return {
    input_tokens: tokens.prompt - tokens.cached - tokens.cacheWrite,
    cache_creation_input_tokens: tokens.cacheWrite,
    cache_read_input_tokens: tokens.cached,
    output_tokens: output,
  };
}

export function messagesAnswer(reply: Reply, tokens: Tokens, model: string, streaming: boolean): Encoded {
  const id = `msg_${crypto.randomUUID().slice(0, 8)}`;
  const block = reply.kind === "call"
    // A fresh id per call: a conversation of many calls (a parent's) must not reuse one.
    ? {
      type: "tool_use",
      id: `toolu_${crypto.randomUUID().slice(0, 12)}`,
      name: reply.name,
      input: reply.args,
    }
    : { type: "text", text: reply.text };
  const stop = reply.kind === "call" ? "tool_use" : "end_turn";
  const message = { id, type: "message", role: "assistant", model, stop_sequence: null };
  if (!streaming) {
    return json({ ...message, content: [block], stop_reason: stop, usage: usage(tokens, tokens.output) });
  }
  const ev = (type: string, fields: Record<string, unknown>) => sse({ type, ...fields }, type);
  const chunks = [
    ev("message_start", { message: { ...message, content: [], stop_reason: null, usage: usage(tokens, 1) } }),
  ];
  if (reply.kind === "call") {
    chunks.push(ev("content_block_start", { index: 0, content_block: { ...block, input: {} } }));
    chunks.push(ev("content_block_delta", {
      index: 0,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(reply.args) },
    }));
  } else {
    chunks.push(ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }));
    chunks.push(ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: reply.text } }));
  }
  chunks.push(ev("content_block_stop", { index: 0 }));
  chunks.push(ev("message_delta", {
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: tokens.output },
  }));
  chunks.push(ev("message_stop", {}));
  return stream(chunks);
}
