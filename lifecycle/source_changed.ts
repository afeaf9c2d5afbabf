/**
 * One cause, one code: the user's checkout moved since the run was prepared (HEAD, branch or uncommitted
 * files) is `SOURCE_CHANGED` at every verb that checks it (verify, approve, integrate), with the HEAD the run
 * was prepared on, the HEAD now, and what to do.
 */
import { describeChange } from "../git/fingerprint.ts";
import type { RunState, SourceFingerprint } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { blockRun } from "./block.ts";

const side = (f: SourceFingerprint) => ({ head: f.head, branch: f.branch, dirty: f.dirty });

/** The two sides of a moved source and the words for what moved, for an error's details. */
export function sourceMove(before: SourceFingerprint, now: SourceFingerprint) {
  return { before: side(before), now: side(now), changes: describeChange(before, now) };
}

/** What the user can do with the run's work once its source moved, by how far the run got. */
function whatToDo(state: RunState): string {
  const redo = "or prepare the task again on the checkout as it is now";
  if (state.implementationCommit) {
    const sha = state.implementationCommit.slice(0, 12);
    return `the approved commit ${sha} stays on ${state.workerBranch}: \`git cherry-pick ${sha}\` lands it by hand (spot runs no checks on that), ${redo}`;
  }
  return `the worker's changes stay in its worktree (\`spot diff --id ${state.runId}\` shows them), ${redo}`;
}

/** Ends the run blocked with SOURCE_CHANGED and throws it. */
export function blockSourceChanged(
  ctx: SpotContext,
  state: RunState,
  now: SourceFingerprint,
  extra: Record<string, unknown> = {},
): Promise<never> {
  const move = sourceMove(state.sourceFingerprint, now);
  return blockRun(
    ctx,
    state,
    "SOURCE_CHANGED",
    `the source checkout changed since prepare: ${move.changes.join("; ")}`,
    { source: move, hint: whatToDo(state), ...extra },
  );
}
