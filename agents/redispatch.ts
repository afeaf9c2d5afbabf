/**
 * Re-dispatch after a provider wall (`spot agent start NAME --redispatch-of
 * OLD [--profile P]`): the same brief (or contract) once more, on the next
 * profile of the walled one's fallback chain or the one named, in the same
 * run and worktree, rolled back to its base first. Once: a re-dispatch that
 * walls again fails, and cannot itself be re-dispatched.
 */
import { SpotError } from "../errors.ts";
import { recoverTransition } from "../lifecycle/state_table.ts";
import { withSlotFor } from "../lifecycle/admit.ts";
import { nextFallback, offers } from "../routing/fallback.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { TaskContract } from "../schemas/task_contract.ts";
import type { SpotContext } from "../store/context.ts";
import { loadTask } from "../store/task_file.ts";
import { wallIn } from "./decide.ts";
import { refuseLive } from "./live.ts";
import { pollAgent } from "./poll.ts";
import { type AgentLaunch, checkName, readLaunch, requireRecord } from "./registry.ts";
import { rollbackAgentRun } from "./rollback.ts";

export interface Redispatch {
  launch: AgentLaunch;
  runId: string;
  profile: string;
}

/** Statuses a walled run can be left in: failed by the wall, or still running when poll stopped its driver. */
const WALLED = ["failed", "running", "prepared"];

function refuse(old: string, why: string, details: Record<string, unknown> = {}): never {
  throw new SpotError("STATE_INVALID", `Cannot re-dispatch agent "${old}": ${why}`, {
    details: { name: old, ...details },
  });
}

function pickProfile(
  ctx: SpotContext,
  state: RunState,
  needs: TaskContract["requiredCapabilities"],
  named?: string,
): string {
  const caps = { requiredCapabilities: needs };
  if (named !== undefined) {
    const profile = ctx.config.profiles[named];
    if (!profile) {
      throw new SpotError("PROFILE_NOT_FOUND", `Cannot find profile "${named}" in the config`, {
        details: { available: Object.keys(ctx.config.profiles) },
      });
    }
    if (!offers(profile, caps.requiredCapabilities)) {
      throw new SpotError(
        "CAPABILITY_MISMATCH",
        `Cannot re-dispatch on profile "${named}": it lacks a capability the task needs`,
      );
    }
    return named;
  }
  const next = nextFallback(ctx.config, state.profile, [state.profile], caps);
  if (!next) {
    throw new SpotError(
      "NO_ROUTABLE_PROFILE",
      `Cannot re-dispatch run "${state.runId}": profile "${state.profile}" has no fallback left to try`,
      { details: { profile: state.profile, hint: "name one with --profile" } },
    );
  }
  return next;
}

/** Checks the walled agent, rolls its worktree back and puts its run back to prepared on the new profile. */
export async function redispatchRun(ctx: SpotContext, old: string, named?: string): Promise<Redispatch> {
  checkName(old);
  await requireRecord(ctx.paths, old);
  const record = await refuseLive(ctx, old, "re-dispatch");
  const launch = await readLaunch(ctx.paths, old);
  if (!record?.runId || !launch) refuse(old, "its handle is broken");
  if (record.redispatchOf) {
    refuse(old, `it is already a re-dispatch of "${record.redispatchOf}", and a brief is re-dispatched once`);
  }
  const { line } = await pollAgent(ctx, old);
  if (!wallIn(line)) refuse(old, `it did not stop at a provider wall (${line})`, { line });
  const runId = record.runId;
  const lock = await ctx.store.lock(runId);
  try {
    const state = await ctx.store.load(runId);
    if (!WALLED.includes(state.status)) refuse(old, `its run is ${state.status}`, { runId });
    const task = await loadTask(ctx.store, runId);
    const profileName = pickProfile(ctx, state, task.requiredCapabilities, named);
    const p = ctx.config.profiles[profileName];
    // The walled turn's partial work goes: the new profile starts from the base, as the first one did.
    if (!(await rollbackAgentRun(ctx, runId))) refuse(old, "its worktree is not one spot created", { runId });
    const reason = `re-dispatch of agent ${old} after a provider wall, on profile ${profileName}`;
    const from = state.status;
    const walled = state;
    // A failed run held no slot; going back to prepared takes one again, under the cap.
    await withSlotFor(ctx, walled, "prepared", async () => {
      const back = from !== "prepared" ? recoverTransition(walled, "prepared", reason, ctx.now()) : walled;
      await ctx.store.save({
        ...back,
        profile: profileName,
        adapter: p.adapter,
        provider: p.provider,
        model: p.model,
        fallbackUsed: true,
        interruption: null,
        failure: null,
      });
    });
    if (from !== "prepared") {
      await ctx.store.event(runId, {
        type: "transition",
        from,
        to: "prepared",
        reason: `recover: ${reason}`,
      });
    }
    return { launch, runId, profile: profileName };
  } finally {
    lock.release();
  }
}
