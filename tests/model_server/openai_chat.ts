/** The OpenAI chat completions dialect: request → Turn, Reply → body or SSE. */
import type { Reply, Tokens, Turn } from "./script.ts";
import { type Encoded, isObject, json, list, sse, stream } from "./sse.ts";

export function chatTurn(body: Record<string, unknown>): Turn {
  const tools = list(body.tools).map((t) => {
    const fn = isObject(t.function) ? t.function : t;
    return {
      name: String(fn.name ?? ""),
      kind: "function" as const,
      schema: isObject(fn.parameters) ? fn.parameters : undefined,
    };
  });
  const messages = list(body.messages);
  const hasToolResult = messages.some((m) => m.role === "tool");
  const toolResult = textOf(messages.findLast((m) => m.role === "tool")?.content);
  const userText = textOf(messages.findLast((m) => m.role === "user")?.content);
  return { model: String(body.model ?? ""), tools, hasToolResult, toolResult, userText };
}

/** A message's content as text: a string, or the text parts of a list. */
function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  const parts = list(content).map((p) => typeof p.text === "string" ? p.text : "").join("");
  return parts || undefined;
}

function usage(tokens: Tokens) {
  return {
    prompt_tokens: tokens.prompt,
    completion_tokens: tokens.output,
    total_tokens: tokens.prompt + tokens.output,
    prompt_tokens_details: { cached_tokens: tokens.cached },
  };
}

export function chatAnswer(reply: Reply, tokens: Tokens, model: string, streaming: boolean): Encoded {
  const id = `chatcmpl-${crypto.randomUUID().slice(0, 8)}`;
  const created = Math.floor(Date.now() / 1000);
  const call = reply.kind === "call"
    ? {
      id: "call_scripted_1",
      type: "function",
      function: { name: reply.name, arguments: JSON.stringify(reply.args) },
    }
    : undefined;
  const finish = call ? "tool_calls" : "stop";
  if (!streaming) {
    const message = call
      ? { role: "assistant", content: null, tool_calls: [call] }
      : { role: "assistant", content: reply.kind === "text" ? reply.text : "" };
    return json({
      id,
      object: "chat.completion",
      created,
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage: usage(tokens),
    });
  }
  const chunk = (delta: unknown, finishReason: string | null = null) =>
    sse({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
  const chunks = [chunk({ role: "assistant", content: "" })];
  if (call) {
    chunks.push(chunk({
      tool_calls: [{
        index: 0,
        id: call.id,
        type: "function",
        function: { name: call.function.name, arguments: "" },
      }],
    }));
    chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }));
  } else if (reply.kind === "text") {
    chunks.push(chunk({ content: reply.text }));
  }
  chunks.push(chunk({}, finish));
  chunks.push(
    sse({ id, object: "chat.completion.chunk", created, model, choices: [], usage: usage(tokens) }),
  );
  chunks.push(sse("[DONE]"));
  return stream(chunks);
}
