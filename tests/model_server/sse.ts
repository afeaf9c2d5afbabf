/** Server-sent event framing shared by the streaming dialects. */

export function sse(data: unknown, event?: string): string {
  const head = event ? `event: ${event}\n` : "";
  return `${head}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** A streamed or a plain JSON answer, before it becomes a Response. */
export interface Encoded {
  contentType: string;
  chunks: string[];
}

export function json(value: unknown): Encoded {
  return { contentType: "application/json", chunks: [JSON.stringify(value)] };
}

export function stream(chunks: string[]): Encoded {
  return { contentType: "text/event-stream", chunks };
}

type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
export const list = (v: unknown): Json[] => Array.isArray(v) ? v.filter(isObject) : [];
