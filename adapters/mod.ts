/**
 * Worker adapters: one per CLI, each pure (plan, parse, finish).
 * @module
 */
import { piAdapter } from "./pi.ts";
import { replayAdapter } from "./replay.ts";
import type { WorkerAdapter } from "./types.ts";

export * from "./types.ts";
export { classify } from "./classify.ts";
export { finishPi, parsePiLine, TOOL_OUTPUT_CAP } from "./pi_stream.ts";
export { piAdapter, replayAdapter };

const ADAPTERS: Readonly<Record<string, WorkerAdapter>> = { pi: piAdapter, replay: replayAdapter };

/** The adapter a profile names, or undefined for an unknown name. */
export function getAdapter(name: string): WorkerAdapter | undefined {
  return Object.hasOwn(ADAPTERS, name) ? ADAPTERS[name] : undefined;
}
