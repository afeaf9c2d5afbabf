/**
 * Worker adapters: one per CLI, each pure (plan, parse, finish).
 * @module
 */
import { claudeAdapter } from "./claude.ts";
import { codexAdapter } from "./codex.ts";
import { opencodeAdapter } from "./opencode.ts";
import { piAdapter } from "./pi.ts";
import { replayAdapter } from "./replay.ts";
import type { WorkerAdapter } from "./types.ts";

export * from "./types.ts";
export { classify, type ClassifyHints, resetTime } from "./classify.ts";
export { finishPi, parsePiLine, TOOL_OUTPUT_CAP } from "./pi_stream.ts";
export { claudeAdapter, codexAdapter, opencodeAdapter, piAdapter, replayAdapter };

const ADAPTERS: Readonly<Record<string, WorkerAdapter>> = {
  pi: piAdapter,
  replay: replayAdapter,
  opencode: opencodeAdapter,
  codex: codexAdapter,
  claude: claudeAdapter,
};

/** The adapter a profile names, or undefined for an unknown name. */
export function getAdapter(name: string): WorkerAdapter | undefined {
  return Object.hasOwn(ADAPTERS, name) ? ADAPTERS[name] : undefined;
}
