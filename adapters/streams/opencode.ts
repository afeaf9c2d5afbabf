/**
 * The `opencode run --format json` stream (kilo speaks the same): lines →
 * normalized events, and the finish rule. There is no final result record:
 * a run succeeded when no error event came and the last step stopped.
 */
import type { WorkerEvent } from "../../schemas/events.ts";
import { classify } from "./classify.ts";
import { finishStream } from "./finish.ts";
import { cap, count, isObject, type Json, jsonLine, spend, str } from "./util.ts";
import type { ParseState, WorkerExit, WorkerOutcome } from "../types.ts";

const TYPES = new Set(["step_start", "step_finish", "text", "reasoning", "tool_use", "error"]);
/** Step reasons that end a turn badly (the model ran out of room or was filtered). */
const BAD_STOPS = new Set(["length", "content-filter", "error"]);

function toolUse(part: Json): WorkerEvent[] {
  const state = isObject(part.state) ? part.state : {};
  const id = str(part.callID) ?? str(part.id) ?? "";
  const name = str(part.tool) ?? "";
  const events: WorkerEvent[] = [{ type: "worker_tool_call", id, name, input: state.input ?? {} }];
  const status = str(state.status);
  if (status === "completed" || status === "error") {
    const output = str(state.output) ?? str(state.error) ?? "";
    events.push({ type: "worker_tool_result", id, name, ok: status === "completed", output: cap(output) });
  }
  return events;
}

function stepFinish(part: Json, state: ParseState): WorkerEvent[] {
  const reason = str(part.reason) ?? "";
  state.scratch.lastReason = reason;
  if (reason !== "tool-calls") state.finished = true;
  const tokens = isObject(part.tokens) ? part.tokens : {};
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  const cost = typeof part.cost === "number" ? part.cost : 0;
  return spend(state, {
    input: count(tokens.input),
    output: count(tokens.output) + count(tokens.reasoning),
    cacheRead: count(cache.read),
    cacheWrite: count(cache.write),
  }, cost);
}

/** An error event: status and body code decide quota vs rate limit. */
function errorEvent(event: Json, state: ParseState): WorkerEvent[] {
  const error = isObject(event.error) ? event.error : {};
  const data = isObject(error.data) ? error.data : {};
  const message = str(data.message) ?? str(error.message) ?? str(error.name) ?? "opencode reported an error";
  const body = str(data.responseBody) ?? "";
  const status = typeof data.statusCode === "number" ? data.statusCode : undefined;
  // The body holds the provider's code (insufficient_quota vs rate_limit_exceeded); the message stays clean.
  state.failure = { ...classify(body ? `${message} ${body}` : message, { status }), message };
  state.lastError = message;
  return [{ type: "worker_error", message }];
}

export function parseOpencodeLine(line: string, state: ParseState): WorkerEvent[] {
  const event = jsonLine(line, state);
  if (!isObject(event) || !TYPES.has(str(event.type) ?? "")) {
    if (event !== undefined) state.badLines++;
    return [];
  }
  state.events++;
  const part = isObject(event.part) ? event.part : {};
  switch (event.type) {
    case "step_start": {
      if (state.scratch.started) return [];
      state.scratch.started = true;
      return [{ type: "worker_start", sessionId: str(event.sessionID) }];
    }
    case "text": {
      const text = str(part.text) ?? "";
      if (text === "") return [];
      state.lastText = text;
      return [{ type: "worker_text", text }];
    }
    case "tool_use":
      return toolUse(part);
    case "step_finish":
      return stepFinish(part, state);
    case "error":
      return errorEvent(event, state);
    default:
      return [];
  }
}

export function finishOpencode(exit: WorkerExit, state: ParseState): WorkerOutcome {
  const reason = String(state.scratch.lastReason ?? "");
  const ok = state.finished === true && !BAD_STOPS.has(reason);
  return finishStream(exit, state, {
    ok,
    error: state.finished && !ok ? `Worker stopped with "${reason}"` : undefined,
    needsEnd: true,
  });
}
