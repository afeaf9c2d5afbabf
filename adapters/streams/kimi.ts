/**
 * Kimi Code's print mode with `--output-format stream-json`: one OpenAI-style
 * message per line (`assistant` with `tool_calls`, `tool`), `meta` lines such
 * as the resume hint, and `{"type":"error",code,message,retryable}` for a
 * failed turn (exit 75 when retryable). Print mode reports no token usage.
 * Trae's `--json` array holds messages of the same shape.
 */
import type { WorkerEvent } from "../../schemas/events.ts";
import { classify } from "./classify.ts";
import { finishStream } from "./finish.ts";
import { argsOf, cap, isObject, type Json, jsonLine, objects, str, textOf } from "./util.ts";
import type { ParseState, WorkerExit, WorkerOutcome } from "../types.ts";

/** Kimi's `QuestionRequest` and friends: a question print mode should have answered itself. */
const QUESTION = /QuestionRequest|ApprovalRequest|ask_user|AskUserQuestion/;

/** Events of one role-tagged message (assistant, tool, meta). */
export function messageEvents(message: Json, state: ParseState): WorkerEvent[] {
  switch (message.role) {
    case "assistant": {
      if (message.type === "thinking") return [];
      state.scratch.replied = true;
      const events: WorkerEvent[] = [];
      const text = textOf(message.content);
      if (text.trim() !== "") {
        state.lastText = text;
        events.push({ type: "worker_text", text });
      }
      for (const call of objects(message.tool_calls)) {
        const fn = isObject(call.function) ? call.function : {};
        events.push({
          type: "worker_tool_call",
          id: str(call.id) ?? "",
          name: str(fn.name) ?? "",
          input: argsOf(fn.arguments),
        });
      }
      return events;
    }
    case "tool":
      return [{
        type: "worker_tool_result",
        id: str(message.tool_call_id) ?? "",
        ok: message.is_error !== true,
        output: cap(textOf(message.content)),
      }];
    case "meta":
      return typeof message.session_id === "string" && !state.scratch.started
        ? (state.scratch.started = true, [{ type: "worker_start", sessionId: message.session_id }])
        : [];
    default:
      return [];
  }
}

function errorLine(event: Json, state: ParseState): WorkerEvent[] {
  const message = str(event.message) ?? str(event.code) ?? "kimi reported an error";
  state.lastError = message;
  const failure = classify(`${message} ${str(event.code) ?? ""}`.trim());
  state.failure = { ...failure, message };
  return [{ type: "worker_error", message }];
}

export function parseKimiLine(line: string, state: ParseState): WorkerEvent[] {
  const event = jsonLine(line, state);
  if (!isObject(event)) {
    if (event !== undefined) state.badLines++;
    return [];
  }
  if (event.type === "error") {
    state.events++;
    return errorLine(event, state);
  }
  if (typeof event.role !== "string") {
    // Notifications, tool progress, warnings: signs of life, not worker actions.
    if (QUESTION.test(String(event.type ?? ""))) state.pendingAsk = String(event.type);
    state.events++;
    return [];
  }
  state.events++;
  state.pendingAsk = undefined;
  return messageEvents(event, state);
}

export function finishKimi(exit: WorkerExit, state: ParseState): WorkerOutcome {
  // No result record: a clean exit after at least one assistant message is success.
  return finishStream(exit, state, { ok: state.scratch.replied === true, needsEnd: false });
}
