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
