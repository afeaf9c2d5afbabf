/** `list`: a read-only view of the run store, through the run index. */
import type { SpotContext } from "../store/context.ts";
import { runIndexFor } from "../store/run_index.ts";
import { pathExists } from "../store/files.ts";
import { RUN_STATUSES } from "../schemas/constants.ts";
import { SpotError } from "../errors.ts";

export { ACTIVE, summarize } from "../store/run_entry.ts";

export interface ListOptions {
  status?: string;
  caller?: string;
  running?: boolean;
  /** Show at most this many, the newest (default DEFAULT_LIST_LIMIT). */
  limit?: number;
  /** Skip this many newer runs first. */
  offset?: number;
  all?: boolean;
}

/** `spot list` shows the newest runs by default; a page keeps it as fast at 10,000 runs as at 10. */
export const DEFAULT_LIST_LIMIT = 200;

/** Reads the run index (kept current by `save()`, rebuilt from the run directories when stale). */
export async function listRuns(ctx: SpotContext, options: ListOptions) {
  // A misspelt status would match no run and look like an empty store: refused, with the statuses there are.
  if (options.status !== undefined && !(RUN_STATUSES as readonly string[]).includes(options.status)) {
    throw new SpotError(
      "CLI_USAGE",
      `Cannot list runs in status "${options.status}": expected one of ${RUN_STATUSES.join(", ")}`,
      { details: { status: options.status, statuses: [...RUN_STATUSES] } },
    );
  }
  const limit = options.all ? undefined : options.limit ?? DEFAULT_LIST_LIMIT;
  // Where spot has never run there is nothing to list, and no index is made just to say so.
  if (!pathExists(ctx.paths.runsDir)) {
    return { runs: [], count: 0, total: 0, limit: limit ?? null, offset: options.offset ?? 0 };
  }
  const index = runIndexFor(ctx.paths);
  await index.refresh();
  const filter = { status: options.status, caller: options.caller, active: options.running };
  const runs = index.summaries(filter, { limit, offset: options.offset });
  return {
    runs,
    count: runs.length,
    total: index.count(filter),
    limit: limit ?? null,
    offset: options.offset ?? 0,
  };
}

export { inspectRun } from "./inspect.ts";
