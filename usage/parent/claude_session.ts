/**
 * Claude Code appends each API response to the session JSONL as one line per
 * content block (thinking, text, tool use), every line repeating the
 * message's `usage`. Summing lines would count a response two or three
 * times, so each message id counts once, at the largest value seen for each
 * field (an early line of an older version may carry a partial output count).
 * `input_tokens` there is already the non-cached part.
 */
import { count, isRecord, parseCompleteLines } from "./jsonl.ts";
import { type ParentUsage, ZERO_PARENT_USAGE } from "./usage.ts";

export interface ClaudeRead {
  usage: ParentUsage;
  messages: number;
  /** Assistant lines that repeated a message already counted. */
  duplicateLines: number;
  compactions: number;
  lines: number;
  skipped: number;
  bytes: number;
}

type Fields = Omit<ParentUsage, "reasoning">;

function usageOf(raw: Record<string, unknown>): Fields {
  return {
    input: count(raw.input_tokens),
    cacheRead: count(raw.cache_read_input_tokens),
    cacheWrite: count(raw.cache_creation_input_tokens),
    output: count(raw.output_tokens),
  };
}

/** Reads the session file and any subagent transcripts; a message id counts once across all of them. */
export function readClaudeSession(texts: string[]): ClaudeRead {
  const byMessage = new Map<string, Fields>();
  const out = { duplicateLines: 0, compactions: 0, lines: 0, skipped: 0, bytes: 0 };
  let anonymous = 0;
  for (const text of texts) {
    const read = parseCompleteLines(text);
    out.lines += read.lines;
    out.skipped += read.skipped;
    out.bytes += read.bytes;
    for (const line of read.records) {
      if (line.type === "system" && line.subtype === "compact_boundary") out.compactions++;
      if (line.type !== "assistant" || !isRecord(line.message) || !isRecord(line.message.usage)) continue;
      const id = typeof line.message.id === "string" ? line.message.id : `(no id ${++anonymous})`;
      const usage = usageOf(line.message.usage);
      const seen = byMessage.get(id);
      if (!seen) {
        byMessage.set(id, usage);
        continue;
      }
      out.duplicateLines++;
      for (const key of Object.keys(seen) as (keyof Fields)[]) seen[key] = Math.max(seen[key], usage[key]);
    }
  }
  const usage = { ...ZERO_PARENT_USAGE };
  for (const u of byMessage.values()) {
    usage.input += u.input;
    usage.cacheRead += u.cacheRead;
    usage.cacheWrite += u.cacheWrite;
    usage.output += u.output;
  }
  return { usage, messages: byMessage.size, ...out };
}
