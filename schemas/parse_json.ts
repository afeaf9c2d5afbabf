/**
 * The fast path of schemas/locate.ts: a strict JSON text without a repeated key is parsed with JSON.parse and
 * validated at once, without loading jsonc-parser (tens of milliseconds of every prepare and approve;
 * docs/performance.md). Anything else (comments, a syntax error, a repeated key, a value the schema refuses)
 * goes to `parseWithSchema`, which finds the line:col of every problem. schemas/parse_json_test.ts holds the
 * two paths to the same results.
 */
import type { z } from "zod";
import { lazy } from "../base/lazy.ts";
import type { Parsed, ParseOptions } from "./locate.ts";

/** True when an object in the text names a key twice; the text must be valid JSON (JSON.parse accepted it). */
export function hasRepeatedKey(text: string): boolean {
  const objects: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const keys = objects[objects.length - 1];
      if (expectKey && keys) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (keys.has(key)) return true;
        keys.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === "{") {
      objects.push(new Set());
      expectKey = true;
    } else if (c === "[") {
      objects.push(null);
      expectKey = false;
    } else if (c === "}" || c === "]") {
      objects.pop();
      expectKey = false;
    } else if (c === ",") {
      expectKey = objects[objects.length - 1] instanceof Set;
    } else if (c === ":") {
      expectKey = false;
    }
  }
  return false;
}

/** The value of a strict JSON text with no repeated key, or null when the careful path must read it. */
export function strictJson(text: string): { value: unknown } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return hasRepeatedKey(text) ? null : { value };
}

/** `parseWithSchema` with the fast path first; the same result either way. */
export async function parseJsonWithSchema<S extends z.ZodType>(
  text: string,
  schema: S,
  options: ParseOptions = {},
): Promise<Parsed<z.infer<S>>> {
  const fast = strictJson(text);
  if (fast) {
    const parsed = JSON.parse(JSON.stringify(fast.value));
    const data = options.rewrite ? options.rewrite(parsed).value : parsed;
    const result = schema.safeParse(data);
    if (result.success) return { ok: true, value: result.data };
  }
  const locate = await lazy<typeof import("./locate.ts")>("./locate.ts", import.meta.url);
  return locate.parseWithSchema(text, schema, options);
}

/** `file:line:col path: message` lines, from schemas/locate.ts (loaded only when there is a problem to show). */
export async function formatIssuesOf(
  file: string,
  issues: Parameters<typeof import("./locate.ts").formatIssues>[1],
) {
  const locate = await lazy<typeof import("./locate.ts")>("./locate.ts", import.meta.url);
  return locate.formatIssues(file, issues);
}
