/**
 * The `codex exec --json` stream: lines → normalized events, and the finish
 * rule. Usage comes per turn with cached tokens inside `input_tokens`; a turn
 * ends in `turn.completed` or `turn.failed`.
 */
import type { WorkerEvent } from "../../schemas/events.ts";
import { classify } from "./classify.ts";
import { finishStream } from "./finish.ts";
import { cap, count, isObject, type Json, jsonLine, objects, spend, str } from "./util.ts";
import type { ParseState, WorkerExit, WorkerOutcome } from "../types.ts";

const TYPES = new Set([
  "thread.started",
  "turn.started",
  "turn.completed",
  "turn.failed",
  "item.started",
  "item.updated",
  "item.completed",
  "error",
]);
/** "Reconnecting... 2/5 (unexpected status 429 …)": codex retrying a request on its own. */
const RECONNECT = /^Reconnecting\.\.\.\s*(\d+)\/(\d+)\s*\((.*)\)$/s;

function call(item: Json): WorkerEvent[] {
  const id = str(item.id) ?? "";
  switch (item.type) {
    case "command_execution":
      return [{ type: "worker_tool_call", id, name: "shell", input: { command: item.command } }];
    case "file_change":
      return [{ type: "worker_tool_call", id, name: "apply_patch", input: { changes: item.changes } }];
    case "mcp_tool_call":
      return [{ type: "worker_tool_call", id, name: str(item.tool) ?? "mcp", input: item.arguments ?? {} }];
    default:
      return [];
  }
}

function completed(item: Json, state: ParseState): WorkerEvent[] {
  const id = str(item.id) ?? "";
  switch (item.type) {
    case "agent_message": {
      const text = str(item.text) ?? "";
      if (text === "") return [];
      state.lastText = text;
      return [{ type: "worker_text", text }];
    }
    case "command_execution":
      return [{
        type: "worker_tool_result",
        id,
        name: "shell",
        ok: item.status === "completed" && item.exit_code === 0,
        output: cap(str(item.aggregated_output) ?? ""),
      }];
    case "file_change": {
      const paths = objects(item.changes).map((c) => `${c.kind} ${c.path}`).join(", ");
      return [{
        type: "worker_tool_result",
        id,
        name: "apply_patch",
        ok: item.status === "completed",
        output: paths,
      }];
    }
    case "mcp_tool_call":
      return [{ type: "worker_tool_result", id, name: str(item.tool), ok: item.status === "completed" }];
    default:
      // reasoning, todo lists and codex's own warnings (item type "error") are not worker actions.
      return [];
  }
}

function turnCompleted(event: Json, state: ParseState): WorkerEvent[] {
  state.finished = true;
  state.scratch.completed = true;
  const u = isObject(event.usage) ? event.usage : {};
  const cached = count(u.cached_input_tokens);
  return spend(state, {
    input: Math.max(0, count(u.input_tokens) - cached),
    output: count(u.output_tokens),
    cacheRead: cached,
    cacheWrite: count(u.cache_write_input_tokens),
  });
}

export function parseCodexLine(line: string, state: ParseState): WorkerEvent[] {
  const event = jsonLine(line, state);
  if (!isObject(event) || !TYPES.has(str(event.type) ?? "")) {
    if (event !== undefined) state.badLines++;
    return [];
  }
  state.events++;
  const item = isObject(event.item) ? event.item : {};
  switch (event.type) {
    case "thread.started":
      return [{ type: "worker_start", sessionId: str(event.thread_id) }];
    case "item.started":
      return call(item);
    case "item.completed":
      return completed(item, state);
    case "turn.completed":
      return turnCompleted(event, state);
    case "turn.failed": {
      state.finished = true;
      const message = isObject(event.error) ? str(event.error.message) ?? "" : "";
      state.lastError = message;
      state.failure = classify(message);
      return [{ type: "worker_result", ok: false, text: message }];
    }
    case "error": {
      const message = str(event.message) ?? "";
      const retry = RECONNECT.exec(message);
      if (retry) return [{ type: "worker_retry", attempt: Number(retry[1]), message: retry[3] }];
      state.lastError = message;
      return [{ type: "worker_error", message }];
    }
    default:
      return [];
  }
}

export function finishCodex(exit: WorkerExit, state: ParseState): WorkerOutcome {
  return finishStream(exit, state, { ok: state.scratch.completed === true, needsEnd: true });
}
