/**
 * Reading a JSONL file another process is still appending to: only lines
 * that end in a newline are complete, so a half-written last line is left
 * for the next read instead of being misread now.
 */

export interface JsonlRead {
  records: Record<string, unknown>[];
  /** Complete lines seen (blank ones included). */
  lines: number;
  /** Complete lines that were not a JSON object. */
  skipped: number;
  /** Bytes up to and including the last newline. */
  bytes: number;
}

export function parseCompleteLines(text: string): JsonlRead {
  const end = text.lastIndexOf("\n");
  const complete = end < 0 ? "" : text.slice(0, end);
  const out: JsonlRead = {
    records: [],
    lines: 0,
    skipped: 0,
    bytes: new TextEncoder().encode(text.slice(0, end + 1)).length,
  };
  if (end < 0) return out;
  for (const line of complete.split("\n")) {
    out.lines++;
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line);
      if (value && typeof value === "object" && !Array.isArray(value)) out.records.push(value);
      else out.skipped++;
    } catch {
      out.skipped++;
    }
  }
  return out;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A non-negative integer count from untrusted JSON, else 0. */
export function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
