/**
 * Codex keeps one rollout JSONL per thread. Each model response is followed
 * by an `event_msg` / `token_count` whose `total_token_usage` is the thread's
 * running total, so the last one is the thread's usage so far. Codex counts
 * cached input inside `input_tokens` and reasoning inside `output_tokens`.
 */
import { count, isRecord, parseCompleteLines } from "./jsonl.ts";
import { addParentUsage, type ParentUsage, ZERO_PARENT_USAGE } from "./usage.ts";

export interface CodexRead {
  usage: ParentUsage;
  /** The id in the file's `session_meta`, when it has one. */
  sessionId: string | null;
  tokenCounts: number;
  /** Times the running total went down (a restarted counter); the segments are summed. */
  resets: number;
  compactions: number;
  lines: number;
  skipped: number;
  bytes: number;
}

function normalize(total: Record<string, unknown>): ParentUsage {
  const input = count(total.input_tokens);
  const cached = Math.min(count(total.cached_input_tokens), input);
  return {
    input: input - cached,
    cacheRead: cached,
    cacheWrite: count(total.cache_write_input_tokens),
    output: count(total.output_tokens),
    reasoning: count(total.reasoning_output_tokens),
  };
}

function fellBelow(next: ParentUsage, prev: ParentUsage): boolean {
  return next.input + next.cacheRead < prev.input + prev.cacheRead || next.output < prev.output;
}

export function readCodexRollout(text: string): CodexRead {
  const read = parseCompleteLines(text);
  let done = { ...ZERO_PARENT_USAGE };
  let current = { ...ZERO_PARENT_USAGE };
  const out = {
    sessionId: null as string | null,
    tokenCounts: 0,
    resets: 0,
    compactions: 0,
  };
  for (const line of read.records) {
    const payload = isRecord(line.payload) ? line.payload : {};
    if (line.type === "session_meta" && typeof payload.id === "string") out.sessionId ??= payload.id;
    if (line.type === "compacted") out.compactions++;
    if (line.type !== "event_msg" || payload.type !== "token_count") continue;
    // A token_count with no info carries only rate limits.
    const info = isRecord(payload.info) ? payload.info : null;
    if (!info || !isRecord(info.total_token_usage)) continue;
    const next = normalize(info.total_token_usage);
    out.tokenCounts++;
    if (fellBelow(next, current)) {
      out.resets++;
      done = addParentUsage(done, current);
    }
    current = next;
  }
  return {
    ...out,
    usage: addParentUsage(done, current),
    lines: read.lines,
    skipped: read.skipped,
    bytes: read.bytes,
  };
}
