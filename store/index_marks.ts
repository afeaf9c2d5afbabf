/**
 * How a save tells the run index that a run changed, without opening it: the run's id, appended to one
 * small file beside the index, before and after `state.json` is replaced. Readers (`list`, the dashboard,
 * `spot mcp`'s resources) take the new marks at their next refresh and reread those runs (index_sync.ts),
 * so a verb that only saves never loads SQLite (docs/performance.md). The mark before the write lets a
 * reader notice a save a crash cut short; the one after brings back a run a reader reread between the two.
 */
import { join } from "../base/path.ts";
import type { SpotPaths } from "./paths.ts";

export const MARKS_FILE = "run-index.marks";

const encoder = new TextEncoder();

/** Marks a run for the readers' next refresh. The index is a cache: a mark that cannot be written is dropped. */
export function markRun(paths: SpotPaths, runId: string): void {
  try {
    // Starts on a new line: a line a crash tore is never read as part of this one.
    Deno.writeFileSync(join(paths.stateRoot, MARKS_FILE), encoder.encode(`\n${runId}\n`), {
      append: true,
      create: true,
      mode: 0o600,
    });
  } catch {
    // No state dir yet, or a full disk: the next rebuild of the index finds the run anyway.
  }
}
