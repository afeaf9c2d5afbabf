/**
 * The gemini-cli `stream-json` stream: lines → normalized events, and the
 * finish rule. Assistant text arrives in deltas and is gathered per turn;
 * usage for the whole run is in `result.stats`; the exit code is no guide
 * (145 on a 401).
 */
import type { WorkerEvent } from "../../schemas/events.ts";
import { classify } from "./classify.ts";
import { finishStream } from "./finish.ts";
import { cap, count, isObject, type Json, jsonLine, spend, str } from "./util.ts";
import type { ParseState, WorkerExit, WorkerOutcome } from "../types.ts";

const TYPES = new Set(["init", "message", "tool_use", "tool_result", "result", "error"]);

/** Emits the assistant text gathered since the last tool or result. */
function flush(state: ParseState): WorkerEvent[] {
  const text = String(state.scratch.text ?? "");
  state.scratch.text = "";
  if (text.trim() === "") return [];
  state.lastText = text;
  return [{ type: "worker_text", text }];
}

function result(event: Json, state: ParseState): WorkerEvent[] {
  state.finished = true;
  const stats = isObject(event.stats) ? event.stats : {};
  const cached = count(stats.cached);
  const input = typeof stats.input === "number"
    ? count(stats.input)
    : Math.max(0, count(stats.input_tokens) - cached);
  const events = [
    ...flush(state),
    ...spend(state, { input, output: count(stats.output_tokens), cacheRead: cached, cacheWrite: 0 }),
  ];
  const ok = event.status === "success";
  state.scratch.ok = ok;
  if (!ok) {
    const error = isObject(event.error) ? event.error : {};
    const message = str(error.message) ?? `gemini finished with status "${str(event.status)}"`;
    state.lastError = message;
    state.failure = classify(message);
  }
  events.push({ type: "worker_result", ok, stopReason: str(event.status), text: state.lastText });
  return events;
}

export function parseGeminiLine(line: string, state: ParseState): WorkerEvent[] {
  const event = jsonLine(line, state);
  if (!isObject(event) || !TYPES.has(str(event.type) ?? "")) {
    if (event !== undefined) state.badLines++;
    return [];
  }
  state.events++;
  switch (event.type) {
    case "init":
      return [{ type: "worker_start", sessionId: str(event.session_id), model: str(event.model) }];
    case "message": {
      if (event.role !== "assistant") return [];
      const content = str(event.content) ?? "";
      // A message without `delta` is whole; deltas add up to one.
      state.scratch.text = event.delta === true ? String(state.scratch.text ?? "") + content : content;
      return event.delta === true ? [] : flush(state);
    }
    case "tool_use":
      return [...flush(state), {
        type: "worker_tool_call",
        id: str(event.tool_id) ?? "",
        name: str(event.tool_name) ?? "",
        input: event.parameters ?? {},
      }];
    case "tool_result": {
      const error = isObject(event.error) ? str(event.error.message) : undefined;
      return [{
        type: "worker_tool_result",
        id: str(event.tool_id) ?? "",
        ok: event.status === "success",
        output: cap(str(event.output) ?? error ?? ""),
      }];
    }
    case "error": {
      const message = str(event.message) ?? "";
      if (event.severity === "error") state.lastError = message;
      return [{ type: "worker_error", message }];
    }
    case "result":
      return result(event, state);
    default:
      return [];
  }
}

export function finishGemini(exit: WorkerExit, state: ParseState): WorkerOutcome {
  return finishStream(exit, state, { ok: state.scratch.ok === true, needsEnd: true });
}
