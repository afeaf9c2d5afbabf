/**
 * CLIs whose headless JSON is a final document rather than an event stream
 * (Trae's `--json` array of messages, ZCode's `-p --json` result): any line
 * that is a whole JSON value is read at once; text that is not (a document
 * printed over several lines) is gathered and read when the process ends.
 */
import type { WorkerEvent } from "../../schemas/events.ts";
import { CLAUDE_TYPES, claudeEvent } from "./claude.ts";
import { classify } from "./classify.ts";
import { finishStream } from "./finish.ts";
import { messageEvents } from "./kimi.ts";
import { count, isObject, type Json, jsonLine, spend, str, textOf } from "./util.ts";
import type { ParseState, WorkerExit, WorkerOutcome } from "../types.ts";

/** A multi-line document larger than this is not a result record. */
const MAX_BUFFER = 4_000_000;

function usageOf(u: Json) {
  const cacheRead = count(u.cache_read_input_tokens) || count(u.cached_tokens) || count(u.cache_read_tokens);
  const includes = u.input_tokens_include_cache === true || u.prompt_tokens !== undefined;
  const input = count(u.input_tokens) || count(u.prompt_tokens);
  return {
    input: includes ? Math.max(0, input - cacheRead) : input,
    output: count(u.output_tokens) || count(u.completion_tokens),
    cacheRead,
    cacheWrite: count(u.cache_creation_input_tokens) || count(u.cache_write_tokens),
  };
}

/** A final record: `{result|response|content, usage?, is_error?|error?}`. */
function finalRecord(record: Json, state: ParseState): WorkerEvent[] {
  state.finished = true;
  const events = isObject(record.usage) ? spend(state, usageOf(record.usage)) : [];
  const text = str(record.result) ?? str(record.response) ?? textOf(record.content);
  const error = isObject(record.error) ? str(record.error.message) : str(record.error);
  const failed = record.is_error === true || record.success === false || error !== undefined;
  state.scratch.ok = !failed;
  if (failed) {
    state.lastError = error ?? text ?? "The worker reported an error";
    state.failure = classify(state.lastError);
  } else if (text) {
    state.lastText = text;
  }
  return [...events, { type: "worker_result", ok: !failed, text }];
}

function valueEvents(value: unknown, state: ParseState): WorkerEvent[] {
  if (Array.isArray(value)) return value.flatMap((item) => valueEvents(item, state));
  if (!isObject(value)) return [];
  state.events++;
  if (typeof value.role === "string") {
    const events = messageEvents(value, state);
    if (value.role === "assistant") state.scratch.ok = true;
    return events;
  }
  if (CLAUDE_TYPES.has(str(value.type) ?? "")) {
    return claudeEvent(value, state, { inputIncludesCache: false });
  }
  if ("result" in value || "response" in value || "usage" in value || "error" in value) {
    return finalRecord(value, state);
  }
  state.events--;
  return [];
}

export function parseJsonResultLine(line: string, state: ParseState): WorkerEvent[] {
  const value = jsonLine(line, state);
  if (value === undefined) {
    const buffer = String(state.scratch.buffer ?? "");
    if (buffer.length < MAX_BUFFER) state.scratch.buffer = buffer + line + "\n";
    return [];
  }
  return valueEvents(value, state);
}

export function finishJsonResult(exit: WorkerExit, state: ParseState): WorkerOutcome {
  const buffer = String(state.scratch.buffer ?? "").trim();
  if (buffer.startsWith("{") || buffer.startsWith("[")) {
    try {
      valueEvents(JSON.parse(buffer), state);
      state.badLines = 0;
    } catch {
      // Not one document: the lines stay counted as noise.
    }
  }
  return finishStream(exit, state, { ok: state.scratch.ok === true, needsEnd: false });
}
