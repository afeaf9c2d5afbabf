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
  const hasToolResult = list(body.contents).some((c) =>
    list(c.parts).some((p) => isObject(p.functionResponse))
  );
  return { model, tools, hasToolResult };
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
