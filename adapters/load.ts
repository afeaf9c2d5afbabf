/**
 * The one adapter a run needs, imported when the run needs it: a turn loads its own CLI's launch plan and
 * stream reader, not all of them. Which names exist comes from the records (adapters/clis/); a record's
 * adapter is `adapters/<name>.ts`, exporting `<name>Adapter` (adapters/clis/records_test.ts holds every
 * record to its adapter).
 */
import { lazy } from "../base/lazy.ts";
import { cliRecord } from "./clis/mod.ts";
import type { WorkerAdapter } from "./types.ts";

/** The names a loader exists for: every record's. */
export { CLI_NAMES as LOADABLE_ADAPTERS } from "./clis/mod.ts";

/** The adapter a profile names, or undefined for an unknown name. */
export async function loadAdapter(name: string): Promise<WorkerAdapter | undefined> {
  const record = cliRecord(name);
  if (!record) return undefined;
  const module = await lazy<Record<string, WorkerAdapter | undefined>>(
    `./${record.name}.ts`,
    import.meta.url,
  );
  return module[`${record.name}Adapter`];
}
