/** The Gemini generateContent dialect: request → Turn, Reply → body or SSE. */
import type { Reply, Tokens, Turn } from "./script.ts";
import { type Encoded, isObject, json, list, sse, stream } from "./sse.ts";

export function geminiTurn(body: Record<string, unknown>, model: string): Turn {
  const tools = list(body.tools).flatMap((t) => list(t.functionDeclarations)).map((f) => ({
    name: String(f.name ?? ""),
    kind: "function" as const,
    schema: isObject(f.parametersJsonSchema)
      ? f.parametersJsonSchema
      : isObject(f.parameters)
      ? f.parameters
      : undefined,
  }));
  const responses = list(body.contents).flatMap((c) => list(c.parts))
    .map((p) => p.functionResponse).filter(isObject);
  // A function's response is an object; gemini-cli puts a tool's text under `output` (or `content`).
  const toolResults = responses.map((r) => {
    const response = isObject(r.response) ? r.response : {};
    const text = response.output ?? response.content ?? response;
    return typeof text === "string" ? text : JSON.stringify(text);
  });
  return { model, tools, hasToolResult: responses.length > 0, toolResults };
}

export function geminiAnswer(reply: Reply, tokens: Tokens, model: string, streaming: boolean): Encoded {
  const part = reply.kind === "call"
    ? { functionCall: { name: reply.name, args: reply.args } }
    : { text: reply.text };
  const body = {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: {
      promptTokenCount: tokens.prompt,
      cachedContentTokenCount: tokens.cached,
      candidatesTokenCount: tokens.output,
      totalTokenCount: tokens.prompt + tokens.output,
    },
    modelVersion: model,
    responseId: crypto.randomUUID().slice(0, 12),
  };
  return streaming ? stream([sse(body)]) : json(body);
}
