/** The OpenAI Responses dialect (codex): request → Turn, Reply → body or SSE, custom tools included. */
import type { OfferedTool, Reply, Tokens, Turn } from "./script.ts";
import { type Encoded, isObject, json, list, sse, stream } from "./sse.ts";

const RESULT_ITEMS = new Set(["function_call_output", "custom_tool_call_output", "tool_result"]);

export function responsesTurn(body: Record<string, unknown>): Turn {
  const tools: OfferedTool[] = list(body.tools).map((t) => ({
    name: String(t.name ?? ""),
    kind: t.type === "custom" ? "custom" : "function",
    schema: isObject(t.parameters) ? t.parameters : undefined,
  }));
  const hasToolResult = list(body.input).some((item) => RESULT_ITEMS.has(String(item.type)));
  return { model: String(body.model ?? ""), tools, hasToolResult };
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
  return {
    type: "function_call",
    id: "fc_scripted_1",
    call_id: "call_scripted_1",
    name: reply.name,
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
