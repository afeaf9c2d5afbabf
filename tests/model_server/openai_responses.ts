/** The OpenAI Responses dialect (codex): request → Turn, Reply → body or SSE, custom tools included. */
import type { OfferedTool, Reply, Tokens, Turn } from "./script.ts";
import { type Encoded, isObject, json, list, sse, stream } from "./sse.ts";

const RESULT_ITEMS = new Set(["function_call_output", "custom_tool_call_output", "tool_result"]);

/** What a namespaced tool is called by in a Turn: `<namespace>__<tool>` (codex: `mcp__spot__spot_prepare`). */
const NAMESPACED = "__";

function offered(t: Record<string, unknown>): OfferedTool {
  return {
    name: String(t.name ?? ""),
    kind: t.type === "custom" ? "custom" : "function",
    schema: isObject(t.parameters) ? t.parameters : undefined,
  };
}

/** A tool output's text: a string, or the text parts of a content list. */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  return list(output).map((part) => String(part.text ?? "")).join("");
}

export function responsesTurn(body: Record<string, unknown>): Turn {
  // codex offers an MCP server's tools grouped in one `namespace` tool (`mcp__spot`), each a function in it.
  const tools: OfferedTool[] = list(body.tools).flatMap((t) =>
    t.type === "namespace"
      ? list(t.tools).map((inner) => ({ ...offered(inner), name: `${t.name}${NAMESPACED}${inner.name}` }))
      : [offered(t)]
  );
  const results = list(body.input).filter((item) => RESULT_ITEMS.has(String(item.type)));
  const toolResults = results.map((item) => outputText(item.output));
  return { model: String(body.model ?? ""), tools, hasToolResult: results.length > 0, toolResults };
}

function usage(tokens: Tokens) {
  return {
    input_tokens: tokens.prompt,
    input_tokens_details: { cached_tokens: tokens.cached },
    output_tokens: tokens.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: tokens.prompt + tokens.output,
  };
}

function outputItem(reply: Reply): Record<string, unknown> {
  if (reply.kind === "text") {
    return {
      type: "message",
      id: "msg_scripted_1",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: reply.text, annotations: [] }],
    };
  }
  if (reply.callKind === "custom") {
    return {
      type: "custom_tool_call",
      id: "ctc_scripted_1",
      call_id: "call_scripted_1",
      name: reply.name,
      input: reply.args,
      status: "completed",
    };
  }
  // A namespaced tool is called by its own name, with its namespace beside it.
  const cut = reply.name.lastIndexOf(NAMESPACED);
  const named = cut > 0
    ? { name: reply.name.slice(cut + 2), namespace: reply.name.slice(0, cut) }
    : { name: reply.name };
  return {
    type: "function_call",
    id: "fc_scripted_1",
    call_id: `call_scripted_${crypto.randomUUID().slice(0, 8)}`,
    ...named,
    arguments: JSON.stringify(reply.args),
    status: "completed",
  };
}

export function responsesAnswer(reply: Reply, tokens: Tokens, model: string, streaming: boolean): Encoded {
  const id = `resp_${crypto.randomUUID().slice(0, 8)}`;
  const created_at = Math.floor(Date.now() / 1000);
  const item = outputItem(reply);
  const done = {
    id,
    object: "response",
    created_at,
    status: "completed",
    model,
    output: [item],
    usage: usage(tokens),
  };
  if (!streaming) return json(done);
  let seq = 0;
  const ev = (type: string, fields: Record<string, unknown>) =>
    sse({ type, sequence_number: seq++, ...fields }, type);
  const pending = { id, object: "response", created_at, status: "in_progress", model, output: [] };
  const chunks = [
    ev("response.created", { response: pending }),
    ev("response.in_progress", { response: pending }),
  ];
  const started = item.type === "message" ? { ...item, status: "in_progress", content: [] } : {
    ...item,
    status: "in_progress",
    ...(item.type === "function_call" ? { arguments: "" } : { input: "" }),
  };
  chunks.push(ev("response.output_item.added", { output_index: 0, item: started }));
  if (reply.kind === "text") {
    const part = { type: "output_text", text: "", annotations: [] };
    const at = { item_id: item.id, output_index: 0, content_index: 0 };
    chunks.push(ev("response.content_part.added", { ...at, part }));
    chunks.push(ev("response.output_text.delta", { ...at, delta: reply.text }));
    chunks.push(ev("response.output_text.done", { ...at, text: reply.text }));
    chunks.push(ev("response.content_part.done", { ...at, part: { ...part, text: reply.text } }));
  } else if (item.type === "function_call") {
    const at = { item_id: item.id, output_index: 0 };
    chunks.push(ev("response.function_call_arguments.delta", { ...at, delta: item.arguments }));
    chunks.push(ev("response.function_call_arguments.done", { ...at, arguments: item.arguments }));
  } else {
    const at = { item_id: item.id, output_index: 0 };
    chunks.push(ev("response.custom_tool_call_input.delta", { ...at, delta: item.input }));
    chunks.push(ev("response.custom_tool_call_input.done", { ...at, input: item.input }));
  }
  chunks.push(ev("response.output_item.done", { output_index: 0, item }));
  chunks.push(ev("response.completed", { response: done }));
  return stream(chunks);
}
