/**
 * The `pi --mode json` stream: lines → normalized worker events, and the
 * finish rule. pi exits 0 in json mode even when the provider failed, so the
 * outcome is read from the last assistant `stopReason`, not the exit code.
 */
import type { Usage, WorkerEvent } from "../../schemas/events.ts";
import { addUsage } from "../../schemas/usage_sum.ts";
import { classify } from "./classify.ts";
import type { ParseState, WorkerExit, WorkerOutcome } from "../types.ts";

/** Tool output is for a progress view; the worktree diff is the real record. */
export const TOOL_OUTPUT_CAP = 2000;

/** Every line type pi emits in json mode; anything else is not a pi event. */
const PI_TYPES = new Set([
  "session",
  "agent_start",
  "agent_end",
  "turn_start",
  "turn_end",
  "message_start",
  "message_update",
  "message_end",
  "tool_execution_start",
  "tool_execution_update",
  "tool_execution_end",
  "auto_retry_start",
  "auto_retry_end",
  "compaction_start",
  "compaction_end",
  "queue_update",
]);

const FAILED_STOPS = new Set(["error", "aborted"]);

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => typeof v === "string" ? v : undefined;
const count = (v: unknown): number =>
  typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : 0;
const contentOf = (message: Json): Json[] =>
  Array.isArray(message.content) ? message.content.filter(isObject) : [];
const textsOf = (content: Json[]): string[] =>
  content.filter((c) => c.type === "text" && typeof c.text === "string").map((c) => c.text as string);

function assistantEnd(message: Json, state: ParseState): WorkerEvent[] {
  const events: WorkerEvent[] = [];
  const content = contentOf(message);
  for (const text of textsOf(content)) {
    state.lastText = text;
    events.push({ type: "worker_text", text });
  }
  for (const call of content.filter((c) => c.type === "toolCall")) {
    events.push({
      type: "worker_tool_call",
      id: str(call.id) ?? "",
      name: str(call.name) ?? "",
      input: call.arguments,
    });
  }
  state.lastStopReason = str(message.stopReason);
  state.lastError = str(message.errorMessage);
  // The provider's words, as an event: a wall or an auth failure is visible before pi's own retries end.
  if (state.lastError) events.push({ type: "worker_error", message: state.lastError });
  if (isObject(message.usage)) {
    const raw = message.usage;
    const usage: Usage = {
      input: count(raw.input),
      output: count(raw.output),
      cacheRead: count(raw.cacheRead),
      cacheWrite: count(raw.cacheWrite),
    };
    const costUsd = isObject(raw.cost) && typeof raw.cost.total === "number"
      ? Math.max(0, raw.cost.total)
      : 0;
    if (usage.input + usage.output + usage.cacheRead + usage.cacheWrite > 0 || costUsd > 0) {
      state.usage = addUsage(state.usage, usage);
      state.costUsd += costUsd;
      events.push({ type: "worker_usage", usage, costUsd });
    }
  }
  return events;
}

function agentEnd(event: Json, state: ParseState): WorkerEvent[] {
  const messages = Array.isArray(event.messages) ? event.messages.filter(isObject) : [];
  const last = messages.findLast((m) => m.role === "assistant");
  if (last) {
    state.lastStopReason = str(last.stopReason) ?? state.lastStopReason;
    state.lastError = str(last.errorMessage) ?? state.lastError;
  }
  const stopReason = state.lastStopReason;
  const texts = last ? textsOf(contentOf(last)) : [];
  const text = texts.length > 0 ? texts.join("\n") : state.lastText;
  return [{ type: "worker_result", ok: !FAILED_STOPS.has(stopReason ?? ""), stopReason, text }];
}

/** Parses one stdout line of `pi --mode json`; unknown lines are counted, never thrown. */
export function parsePiLine(line: string, state: ParseState): WorkerEvent[] {
  if (line.trim() === "") return [];
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    state.badLines++;
    return [];
  }
  if (!isObject(event) || !PI_TYPES.has(str(event.type) ?? "")) {
    state.badLines++;
    return [];
  }
  state.events++;
  switch (event.type) {
    case "session":
      return [{ type: "worker_start", sessionId: str(event.id) }];
    case "message_end":
      return isObject(event.message) && event.message.role === "assistant"
        ? assistantEnd(event.message, state)
        : [];
    case "tool_execution_end": {
      const result = isObject(event.result) ? contentOf(event.result) : [];
      const output = textsOf(result).join("\n").slice(0, TOOL_OUTPUT_CAP);
      const id = str(event.toolCallId) ?? "";
      return [{
        type: "worker_tool_result",
        id,
        name: str(event.toolName),
        ok: event.isError !== true,
        output,
      }];
    }
    case "auto_retry_start":
      return [{
        type: "worker_retry",
        attempt: count(event.attempt),
        message: str(event.errorMessage) ?? "",
      }];
    case "agent_end":
      state.finished = true;
      return agentEnd(event, state);
    default:
      // message_update repeats the partial message; message_end carries it whole.
      return [];
  }
}

/** Decides the outcome from what the stream said; the exit code only breaks ties. */
export function finishPi(exit: WorkerExit, state: ParseState): WorkerOutcome {
  const spent = { usage: state.usage, costUsd: state.costUsd };
  const failed = (failure: WorkerOutcome["failure"]): WorkerOutcome => ({ ok: false, failure, ...spent });
  const how = exit.signal !== null
    ? `was killed by signal "${exit.signal}"`
    : `exited with code ${exit.exitCode}`;
  const tail = exit.stderrTail.trim() === "" ? "" : `: ${exit.stderrTail.trim()}`;

  if (exit.cancelled) {
    return failed({ code: "cancelled", class: "permanent", message: "Worker was cancelled" });
  }
  if (exit.timedOut) return failed({ code: "timeout", class: "transient", message: "Worker timed out" });
  if (FAILED_STOPS.has(state.lastStopReason ?? "")) {
    return failed(classify(state.lastError ?? `Worker stopped with "${state.lastStopReason}"`));
  }
  const crashed = exit.exitCode !== 0 || exit.signal !== null;
  if (state.events === 0 && !crashed) {
    return failed({ code: "zero_output", class: "permanent", message: `Worker produced no events${tail}` });
  }
  if (crashed) return failed({ code: "cli_crash", class: "transient", message: `Worker ${how}${tail}` });
  // pi always closes a turn with agent_end; a stream that just stops was cut short, whatever the exit code.
  if (!state.finished) {
    return failed({
      code: "cli_crash",
      class: "transient",
      message: `Worker ${how} without finishing its turn${tail}`,
    });
  }
  return { ok: true, text: state.lastText, ...spent };
}
