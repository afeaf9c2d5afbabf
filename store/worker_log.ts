/** The human view of the event union: one readable line per event, no raw JSON. */
import type { SpotEvent, WorkerEvent } from "../schemas/events.ts";

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

/*
 * What a worker is doing now, in a few words, for the live progress line of `spot run` on a terminal: the
 * tool it called and the file (or command) that call names.
 */

/** The keys the worker CLIs use for a tool call's file (pi, claude, opencode, gemini, kimi, qwen). */
const FILE_KEYS = ["path", "file_path", "filePath", "file", "filename", "notebook_path", "absolute_path"];
/** ... and for a shell or search call's argument, shown when the call names no file. */
const OTHER_KEYS = ["command", "cmd", "pattern", "query", "url"];
/** Enough of a path or command to recognise it; the progress line is cut to the terminal anyway. */
const MAX_TARGET = 80;

function clipTarget(text: string): string {
  const flat = stripTerminal(text).replace(/\s+/g, " ").trim();
  return flat.length > MAX_TARGET ? flat.slice(0, MAX_TARGET - 1) + "…" : flat;
}

/** The file or argument a tool call names, relative to `root` (the worktree) when it lies inside it. */
export function toolTarget(input: unknown, root?: string): string | null {
  if (typeof input !== "object" || input === null) return null;
  const fields = input as Record<string, unknown>;
  for (const key of [...FILE_KEYS, ...OTHER_KEYS]) {
    let value = fields[key];
    if (Array.isArray(value)) value = value.filter((v) => typeof v === "string").join(" ");
    if (typeof value !== "string" || value.trim() === "") continue;
    const inside = root && value.startsWith(`${root}/`) ? value.slice(root.length + 1) : value;
    return clipTarget(inside);
  }
  return null;
}

/** A few words for the event, or null when it does not change what the worker is doing. */
export function workerActivity(event: WorkerEvent, root?: string): string | null {
  switch (event.type) {
    case "worker_tool_call": {
      const target = toolTarget(event.input, root);
      const name = clipTarget(event.name) || "tool";
      return target ? `${name} ${target}` : name;
    }
    case "worker_text":
      return "writing";
    case "worker_retry":
      return `retry ${event.attempt}`;
    case "worker_error":
      return "error";
    default:
      return null;
  }
}
