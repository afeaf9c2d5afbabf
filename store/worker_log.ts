/** The human view of the event union: one readable line per event, no raw JSON. */
import type { SpotEvent } from "../schemas/events.ts";

/**
 * Terminal escapes and other control characters a worker could use to mess with a viewer: CSI,
 * OSC (OSC 52 writes the viewer's clipboard; an unterminated one is dropped to the end), their
 * 8-bit forms, single-character escapes, C0 and C1 controls.
 */
const CONTROL =
  // deno-lint-ignore no-control-regex
  /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|(\x1b\]|\x9d)[^\x07\x1b\x9c]*(\x07|\x1b\\|\x9c|$)|\x1b[@-Z\\-_]|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

export function stripTerminal(text: string): string {
  return text.replace(CONTROL, "");
}

/** JSON would turn an escape into visible `\u001b` text; the sequence is dropped before it gets there. */
function cleanStrings(_key: string, value: unknown): unknown {
  return typeof value === "string" ? stripTerminal(value) : value;
}

function clip(text: string, max = 400): string {
  const flat = stripTerminal(text).replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max) + "…" : flat;
}

/** The worker.log line for an event, or null when the event is not worth a line. */
export function renderWorkerLogLine(event: SpotEvent): string | null {
  const t = event.at.slice(11, 19);
  switch (event.type) {
    case "worker_start":
      return `${t} [${event.phase}] worker started${event.model ? ` (${clip(event.model, 80)})` : ""}`;
    case "worker_text":
      return `${t} [${event.phase}] says: ${clip(event.text)}`;
    case "worker_tool_call":
      return `${t} [${event.phase}] tool ${clip(event.name, 40)} ${
        clip(JSON.stringify(event.input ?? {}, cleanStrings), 200)
      }`;
    case "worker_tool_result":
      return `${t} [${event.phase}] tool ${event.ok ? "ok" : "FAILED"}${
        event.output ? `: ${clip(event.output, 200)}` : ""
      }`;
    case "worker_usage":
      return `${t} [${event.phase}] tokens in ${event.usage.input} (+${event.usage.cacheRead} cached) out ${event.usage.output}${
        event.credits !== undefined ? `, ${event.credits} credits` : ""
      }`;
    case "worker_retry":
      return `${t} [${event.phase}] retry ${event.attempt}: ${clip(event.message, 200)}`;
    case "worker_error":
      return `${t} [${event.phase}] error: ${clip(event.message, 300)}`;
    case "worker_warning":
      return `${t} [${event.phase}] warning: ${clip(event.message, 300)}`;
    case "worker_result":
      return `${t} [${event.phase}] finished ${event.ok ? "ok" : "with an error"}${
        event.stopReason ? ` (${clip(event.stopReason, 40)})` : ""
      }`;
    case "transition":
      return `${t} status ${event.from ?? "-"} -> ${event.to}: ${clip(event.reason, 200)}`;
    case "verify_command":
      return `${t} check ${event.passed ? "passed" : "FAILED"}: ${clip(event.argv.join(" "), 200)}`;
    case "agent":
      return `${t} agent ${clip(event.name, 64)} ${event.state}${
        event.line ? `: ${clip(event.line, 200)}` : ""
      }`;
    case "fleet":
      return `${t} fleet task ${clip(event.taskId, 100)} ${event.state}${
        event.executor ? ` by ${clip(event.executor, 64)}` : ""
      }${event.attempt ? ` (attempt ${event.attempt})` : ""}${
        event.message ? `: ${clip(event.message, 200)}` : ""
      }`;
    default:
      return null;
  }
}
