/**
 * The one adapter a run needs, built when the run needs it: a turn imports its own CLI's stream reader, not
 * all of them. Which names exist, and each launch plan, come from the records (adapters/clis/).
 */
import { cliRecord } from "./clis/mod.ts";
import { defineAdapter } from "./clis/record.ts";
import type { WorkerAdapter } from "./types.ts";

/** The names a loader exists for: every record's. */
export { CLI_NAMES as LOADABLE_ADAPTERS } from "./clis/mod.ts";

const built = new Map<string, Promise<WorkerAdapter>>();

/** The adapter a profile names, or undefined for an unknown name; the same object for every call. */
export async function loadAdapter(name: string): Promise<WorkerAdapter | undefined> {
  const record = cliRecord(name);
  if (!record) return undefined;
  if (!built.has(name)) built.set(name, record.reader().then((reader) => defineAdapter(record, reader)));
  return await built.get(name);
}
