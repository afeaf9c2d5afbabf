/**
 * One run index per state directory per process, shared by the store (which
 * updates it on every save) and the readers (`list`, the dashboard).
 */
import type { RunState } from "../schemas/run_state.ts";
import type { SpotPaths } from "./paths.ts";
import { RunIndex } from "./run_index.ts";

const open = new Map<string, RunIndex>();

/** The process's shared index for these paths. */
export function runIndexFor(paths: SpotPaths): RunIndex {
  let index = open.get(paths.stateRoot);
  if (!index) {
    index = RunIndex.open(paths);
    open.set(paths.stateRoot, index);
  }
  return index;
}

/** Closes every shared index (tests, and a server shutting down). */
export function closeRunIndexes(): void {
  for (const index of open.values()) index.close();
  open.clear();
}

/**
 * What `RunStore.save()` calls around its write. The index is a cache: if it
 * cannot be updated, it is left pending (or unindexed) so the next reader
 * rereads the run from its directory, and the save itself goes on.
 */
export async function saveIndexed(
  paths: SpotPaths,
  state: RunState,
  write: () => Promise<void>,
): Promise<void> {
  let index: RunIndex | null = null;
  try {
    index = runIndexFor(paths);
    index.markPending(state.runId);
  } catch {
    index = null;
  }
  await write();
  try {
    await (index ?? runIndexFor(paths)).record(state);
  } catch {
    // Left pending (or never indexed): the next refresh rereads this run from its directory.
  }
}
