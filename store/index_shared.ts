/**
 * One run index per state directory per process, shared by its readers (`list`, the dashboard, `spot mcp`);
 * saves tell it what changed through marks (index_marks.ts).
 */
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
