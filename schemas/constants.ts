/** Values the schemas and the code share, kept free of zod so a verb that only reads them starts fast. */

/** A run id: also a directory name and part of a branch name, so no slash and no leading dot. */
export const RUN_ID_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9._-]{2,79}$/;

/** Review findings at these priorities block approval. */
export const BLOCKING_PRIORITIES = new Set(["P0", "P1", "P2"]);

/** Every status a run can be in (`state.json`'s `status`), in the order of the loop. */
export const RUN_STATUSES = [
  "prepared",
  "running",
  "verifying",
  "selfReviewing",
  "reviewing",
  "revising",
  "approved",
  "committed",
  "integrated",
  "succeeded",
  "failed",
  "blocked",
  "discarded",
] as const;
type RunStatus = typeof RUN_STATUSES[number];

/**
 * The ends of a run: `integrated` (its work landed), `succeeded` (a turn with nothing to land ended well: a
 * job's read-only task, a brief agent's turn), `failed`, `blocked` (a gate stopped it; the work is kept on its
 * branch), `discarded` (dropped on purpose: `spot discard`, its diff kept in `diff.patch`).
 */
export const TERMINAL: ReadonlySet<RunStatus> = new Set([
  "integrated",
  "succeeded",
  "failed",
  "blocked",
  "discarded",
]);
