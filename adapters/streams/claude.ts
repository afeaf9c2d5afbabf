/**
 * The Claude Code `stream-json` stream and its relatives (qwen, CodeBuddy,
 * Qoder speak the same shape): lines → normalized events, and the finish
 * rule. Usage for the whole run is in the `result` line; `subtype` says
 * "success" even when `is_error` is true, so both are read.
 */
import type { WorkerEvent } from "../../schemas/events.ts";
import { classify } from "./classify.ts";
import { finishStream } from "./finish.ts";
import { argsOf, cap, count, isObject, type Json, jsonLine, objects, spend, str, textOf } from "./util.ts";
import type { ParseState, WorkerExit, WorkerOutcome } from "../types.ts";

export interface ClaudeDialect {
  /** qwen counts cached tokens inside `input_tokens`; Claude reports them apart. */
  inputIncludesCache: boolean;
  /** Text a CLI puts in a "successful" result when the provider failed (qwen: `[API Error: 401 …]`). */
  errorText?: RegExp;
  /** Qoder bills in credits: its result's `total_credits` is the run's cost in its own unit. */
  credits?: boolean;
}

/** The result's credits as a usage record: Qoder reports zero tokens, so the credits are the only cost. */
function withCredits(events: WorkerEvent[], credits: number): WorkerEvent[] {
  if (!(credits > 0)) return events;
  const usage = events.find((e) => e.type === "worker_usage");
  if (usage) return events.map((e) => e === usage ? { ...usage, credits } : e);
  return [...events, {
    type: "worker_usage",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    credits,
  }];
}

function assistant(message: Json, state: ParseState): WorkerEvent[] {
  const events: WorkerEvent[] = [];
  for (const block of objects(message.content)) {
    if (block.type === "text" && typeof block.text === "string" && block.text !== "") {
      state.lastText = block.text;
      events.push({ type: "worker_text", text: block.text });
    } else if (block.type === "tool_use") {
      events.push({
        type: "worker_tool_call",
        id: str(block.id) ?? "",
        name: str(block.name) ?? "",
        input: argsOf(block.input),
      });
    }
  }
  return events;
}

function user(message: Json): WorkerEvent[] {
  return objects(message.content).filter((b) => b.type === "tool_result").map((b) => ({
    type: "worker_tool_result" as const,
    id: str(b.tool_use_id) ?? "",
    ok: b.is_error !== true,
    output: cap(textOf(b.content)),
  }));
}

function result(event: Json, state: ParseState, dialect: ClaudeDialect): WorkerEvent[] {
  state.finished = true;
  const u = isObject(event.usage) ? event.usage : {};
  const cacheRead = count(u.cache_read_input_tokens);
  const input = dialect.inputIncludesCache
    ? Math.max(0, count(u.input_tokens) - cacheRead)
    : count(u.input_tokens);
  const cost = typeof event.total_cost_usd === "number" ? event.total_cost_usd : 0;
  const spent = spend(state, {
    input,
    output: count(u.output_tokens),
    cacheRead,
    cacheWrite: count(u.cache_creation_input_tokens),
  }, cost);
  const events = dialect.credits && typeof event.total_credits === "number"
    ? withCredits(spent, event.total_credits)
    : spent;
  const text = str(event.result) ?? "";
  const failed = event.is_error === true || (event.subtype !== undefined && event.subtype !== "success") ||
    (dialect.errorText?.test(text) ?? false);
  if (failed) {
    const status = typeof event.api_error_status === "number" ? event.api_error_status : undefined;
    const message = text || str(event.subtype) || "The worker reported an error";
    state.lastError = message;
    state.failure = classify(message, { status });
  } else if (text !== "") {
    state.lastText = text;
  }
  state.scratch.ok = !failed;
  return [...events, { type: "worker_result", ok: !failed, stopReason: str(event.stop_reason), text }];
}

function system(event: Json): WorkerEvent[] {
  if (event.subtype === "init") {
    return [{ type: "worker_start", sessionId: str(event.session_id), model: str(event.model) }];
  }
  if (event.subtype === "api_retry") {
    const why = [event.error_status, event.error].filter((v) => v !== null && v !== undefined).join(" ");
    return [{ type: "worker_retry", attempt: count(event.attempt), message: why }];
  }
  return [];
}

/** One Claude-shaped event (system, assistant, user, result). */
export function claudeEvent(event: Json, state: ParseState, dialect: ClaudeDialect): WorkerEvent[] {
  const message = isObject(event.message) ? event.message : {};
  switch (event.type) {
    case "system":
      return system(event);
    case "assistant":
      return assistant(message, state);
    case "user":
      return user(message);
    case "result":
      return result(event, state, dialect);
    default:
      return [];
  }
}

export const CLAUDE_TYPES: ReadonlySet<string> = new Set([
  "system",
  "assistant",
  "user",
  "result",
  "stream_event",
]);

/** One stdout line; a line holding a JSON array (the `json` output format) is read as its events in order. */
export function parseClaudeLine(line: string, state: ParseState, dialect: ClaudeDialect): WorkerEvent[] {
  const value = jsonLine(line, state);
  const events = Array.isArray(value) ? value.filter(isObject) : isObject(value) ? [value] : [];
  if (events.length === 0 || !events.some((e) => CLAUDE_TYPES.has(str(e.type) ?? ""))) {
    if (value !== undefined) state.badLines++;
    return [];
  }
  return events.flatMap((event) => {
    if (!CLAUDE_TYPES.has(str(event.type) ?? "")) return [];
    state.events++;
    return claudeEvent(event, state, dialect);
  });
}

export function finishClaude(exit: WorkerExit, state: ParseState): WorkerOutcome {
  return finishStream(exit, state, { ok: state.scratch.ok === true, needsEnd: true });
}
