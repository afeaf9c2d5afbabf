/** Small readers shared by the stream parsers: JSON lines, safe field access, usage bookkeeping. */
import type { Usage, WorkerEvent } from "../../schemas/events.ts";
import { addUsage } from "../../schemas/usage_sum.ts";
import type { ParseState } from "../types.ts";

export type Json = Record<string, unknown>;

/** Tool output is for a progress view; the worktree diff is the real record. */
export const OUTPUT_CAP = 2000;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => typeof v === "string" ? v : undefined;
export const count = (v: unknown): number =>
  typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : 0;
export const objects = (v: unknown): Json[] => Array.isArray(v) ? v.filter(isObject) : [];
export const cap = (text: string): string => text.length > OUTPUT_CAP ? text.slice(0, OUTPUT_CAP) : text;

/** Signs that a CLI drew its interactive UI: alternate screen, hidden cursor, Ink's raw-mode refusal. */
// deno-lint-ignore no-control-regex
const TUI = /\x1b\[\?1049h|\x1b\[\?25l|\x1b\[2J|Raw mode is not supported|not a tty|Inappropriate ioctl/i;
/** Headless CLIs that meet a permission prompt say so in plain text before they stall or reject. */
const ASK =
  /permission requested|waiting for (your )?(approval|confirmation|input)|\(y\/n\)|\[y\/N\]|do you want to (proceed|allow)/i;

/** Parses one stdout line as a JSON value; other text is counted and checked for TUI and prompt signs. */
export function jsonLine(line: string, state: ParseState): unknown {
  const trimmed = line.trim();
  if (trimmed === "") return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    state.badLines++;
    if (TUI.test(line)) state.tui = true;
    if (ASK.test(line)) state.pendingAsk = line.trim().slice(0, 200);
    return undefined;
  }
}

/** Adds one usage record to the run's totals; returns the event, or nothing when it is all zero. */
export function spend(state: ParseState, usage: Usage, costUsd = 0): WorkerEvent[] {
  if (usage.input + usage.output + usage.cacheRead + usage.cacheWrite === 0 && costUsd <= 0) return [];
  state.usage = addUsage(state.usage, usage);
  state.costUsd += Math.max(0, costUsd);
  return [{ type: "worker_usage", usage, ...(costUsd > 0 ? { costUsd } : {}) }];
}

/** Text of a content field that is a string, or an array of `{type:"text", text}` parts. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return objects(content)
    .filter((c) => (c.type === "text" || c.type === undefined) && typeof c.text === "string")
    .map((c) => c.text as string)
    .join("\n");
}

/** A tool's arguments: JSON text is parsed, anything else is kept as it is. */
export function argsOf(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
