/**
 * `spot agent discard NAME`: stop the agent (as `agent stop` does), drop its run (as `spot discard` does: the
 * worktree's changes saved to `diff.patch`, the worktree and branch removed, the run `discarded`), and
 * unregister the name. A run that already landed or succeeded keeps its status; its worktree is cleaned up.
 */
import { isSpotError } from "../errors.ts";
import type { SpotContext } from "../store/context.ts";
import { type DiscardResult, discardRun } from "../lifecycle/discard.ts";
import { cleanupRun } from "../verbs/cleanup.ts";
import { checkName, requireRecord } from "./registry.ts";
import { stopNamedAgent } from "./stop_verb.ts";

export interface AgentDiscardResult {
  name: string;
  runId: string | null;
  /** The driver's process group that was signalled, or null when nothing ran. */
  pgid: number | null;
  killed: number[];
  unregistered: boolean;
  /** The run's status afterwards. */
  runStatus: string | null;
  /** What discarding the run did (null: it had landed or succeeded, and was only cleaned up). */
  discarded: DiscardResult | null;
  /** A landed or succeeded run was cleaned up instead (its worktree removed, its status kept). */
  cleaned: boolean;
}

export async function discardNamedAgent(ctx: SpotContext, name: string): Promise<AgentDiscardResult> {
  checkName(name);
  await requireRecord(ctx.paths, name);
  const stopped = await stopNamedAgent(ctx, name);
  const base = {
    name,
    runId: stopped.runId,
    pgid: stopped.pgid,
    killed: stopped.killed,
    unregistered: stopped.unregistered,
  };
  const runId = stopped.runId;
  const state = runId ? await ctx.store.load(runId).catch(() => null) : null;
  if (!runId || !state) return { ...base, runStatus: null, discarded: null, cleaned: false };
  if (state.status === "integrated" || state.status === "succeeded") {
    const cleaned = state.cleanedAt !== null || await cleanupRun(ctx, runId).then(() => true, (error) => {
      if (isSpotError(error, "CLEANUP_REFUSED")) return false;
      throw error;
    });
    return { ...base, runStatus: state.status, discarded: null, cleaned };
  }
  const discarded = await discardRun(ctx, runId, { reason: `spot agent discard ${name}` });
  return { ...base, runStatus: discarded.status, discarded, cleaned: false };
}
