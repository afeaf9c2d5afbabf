/**
 * Worker adapters: one per CLI, each pure (plan, parse, finish), each built from its record in
 * adapters/clis/. Importing this module loads every adapter (tests, the dashboard's connections page); a run
 * loads only its own through `loadAdapter` (load.ts).
 * @module
 */
import { CLI_NAMES } from "./clis/mod.ts";
import { loadAdapter } from "./load.ts";
import type { WorkerAdapter } from "./types.ts";

export * from "./types.ts";
export { type SessionSupport, sessionSupport } from "./capabilities/sessions.ts";
export { classify, type ClassifyHints, resetTime } from "./streams/classify.ts";
export { finishPi, parsePiLine, TOOL_OUTPUT_CAP } from "./streams/pi.ts";

const ADAPTERS: ReadonlyMap<string, WorkerAdapter> = new Map(
  await Promise.all(CLI_NAMES.map(async (name) => [name, (await loadAdapter(name))!] as const)),
);

/** Every adapter name. */
export const KNOWN_ADAPTER_NAMES: readonly string[] = CLI_NAMES;

/** The adapter a profile names, or undefined for an unknown name. */
export function getAdapter(name: string): WorkerAdapter | undefined {
  return ADAPTERS.get(name);
}
