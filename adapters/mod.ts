/**
 * Worker adapters: one per CLI, each pure (plan, parse, finish).
 * @module
 */
import { claudeAdapter } from "./claude.ts";
import { codebuddyAdapter } from "./codebuddy.ts";
import { codexAdapter } from "./codex.ts";
import { geminiAdapter } from "./gemini.ts";
import { kiloAdapter } from "./kilo.ts";
import { kimiAdapter } from "./kimi.ts";
import { opencodeAdapter } from "./opencode.ts";
import { piAdapter } from "./pi.ts";
import { qoderAdapter } from "./qoder.ts";
import { qwenAdapter } from "./qwen.ts";
import { replayAdapter } from "./replay.ts";
import { traeAdapter } from "./trae.ts";
import type { WorkerAdapter } from "./types.ts";
import { zcodeAdapter } from "./zcode.ts";

export * from "./types.ts";
export { type SessionSupport, sessionSupport } from "./capabilities/sessions.ts";
export { classify, type ClassifyHints, resetTime } from "./streams/classify.ts";
export { finishPi, parsePiLine, TOOL_OUTPUT_CAP } from "./streams/pi.ts";
export {
  claudeAdapter,
  codebuddyAdapter,
  codexAdapter,
  geminiAdapter,
  kiloAdapter,
  kimiAdapter,
  opencodeAdapter,
  piAdapter,
  qoderAdapter,
  qwenAdapter,
  replayAdapter,
  traeAdapter,
  zcodeAdapter,
};

const ADAPTERS: Readonly<Record<string, WorkerAdapter>> = {
  pi: piAdapter,
  replay: replayAdapter,
  opencode: opencodeAdapter,
  codex: codexAdapter,
  claude: claudeAdapter,
  gemini: geminiAdapter,
  qwen: qwenAdapter,
  kilo: kiloAdapter,
  kimi: kimiAdapter,
  qoder: qoderAdapter,
  trae: traeAdapter,
  codebuddy: codebuddyAdapter,
  zcode: zcodeAdapter,
};

/** Every adapter name. */
export const KNOWN_ADAPTER_NAMES: readonly string[] = Object.keys(ADAPTERS);

/** The adapter a profile names, or undefined for an unknown name. */
export function getAdapter(name: string): WorkerAdapter | undefined {
  return Object.hasOwn(ADAPTERS, name) ? ADAPTERS[name] : undefined;
}
