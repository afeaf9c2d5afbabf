/**
 * `integrate`: land the approved commit on the user's clean source branch. Never pushes.
 *
 * Under the repository's landing lock (one landing at a time, git/landing_lock.ts): the source must be
 * exactly as the run found it at prepare (SOURCE_CHANGED otherwise). When the approved commit is byte for byte
 * what verify checked, with the same checks (gates/landed_as_verified.ts), the branch is fast-forwarded to it
 * as it is; otherwise it is cherry-picked in a scratch worktree at HEAD and the contract's checks run there
 * (gates/landing.ts), and only when they pass is the branch fast-forwarded to that very commit. A refusal of
 * any kind changes nothing: the run ends blocked, the commit stays on the worker branch, and the user's
 * checkout and HEAD are as they were.
 */
import { withStepEnforcement } from "../isolation/enforcement.ts";
import { sourceFingerprint } from "../git/fingerprint.ts";
import { gitText } from "../git/git.ts";
import { fastForward, isAncestor } from "../git/land.ts";
import type { ErrorCode } from "../errors.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { LandingPlan } from "../gates/landing.ts";
import { lazy } from "../base/lazy.ts";
import type { SpotContext } from "../store/context.ts";
import { type LandingHold, withLanding } from "../git/landing_lock.ts";
import { requireStatus } from "../lifecycle/state_table.ts";
import { blockRun } from "../lifecycle/block.ts";
import { blockSourceChanged } from "../lifecycle/source_changed.ts";
import { loadTask } from "../store/task_file.ts";
import { moveRun } from "../lifecycle/move.ts";
import { inputPaths } from "../gates/input_files.ts";
import { type LandedAsVerified, landedAsVerified } from "../gates/landed_as_verified.ts";
import { reclaimScratchTrees } from "../gates/scratch_tree.ts";
import type { SourceFingerprint as Fingerprint } from "../schemas/run_state.ts";

/** The landing lock's budget for a fast-forward alone (no checks): git's few calls, with a wide margin. */
const LAND_ONLY_MS = 60_000;

/** What `integrate` did with the approved commit. */
export interface IntegrateResult {
  /** The run. */
  runId: string;
  /** The run's status afterwards (`prepared`, `running`, `reviewing`, `approved`, `integrated`, `blocked`, ...). */
  status: string;
  /** The commit on the source branch, when it landed. */
  integratedCommit?: string;
  /** Why it was not integrated (a dirty checkout, another branch), when it was not. */
  reason?: string;
  /** The branch that holds the approved commit either way. */
  workerBranch: string;
  /** Always false: spot never pushes. */
  pushed: false;
  /** True when verify's result stood for what landed (the tree it checked, with the same checks): no check ran again. */
  checksReused?: boolean;
}

export interface IntegrateOptions {
  /** The caller's hold on the repository's landing lock, when it has one (re-entrant for that call). */
  landing?: LandingHold;
}

/** What every refusal says besides its reason: nothing landed, and where the approved commit is. */
const unlanded = (state: RunState) => ({
  implementationCommit: state.implementationCommit,
  landed: false,
  pushed: false,
});

/** Every refusal alike: the run ends blocked, nothing landed, the commit stays on its branch. */
function refuse(ctx: SpotContext, state: RunState, code: ErrorCode, reason: string): Promise<never> {
  return blockRun(ctx, state, code, reason, unlanded(state));
}

/** A landing of this run that a killed `integrate` made: its commit is on the branch now. */
async function alreadyLanded(state: RunState): Promise<string | null> {
  const commit = state.landing?.commit;
  if (!commit) return null;
  const head = await gitText(["rev-parse", "HEAD"], { cwd: state.sourceRoot });
  return head === commit || await isAncestor(state.sourceRoot, commit, head) ? commit : null;
}

async function finish(ctx: SpotContext, state: RunState, commit: string): Promise<IntegrateResult> {
  // The landing record served only until the run says it landed.
  const done = await moveRun(ctx, state, "integrated", `integrated as ${commit.slice(0, 12)}`, {
    integratedCommit: commit,
    landing: undefined,
  });
  return {
    runId: done.runId,
    status: done.status,
    integratedCommit: commit,
    workerBranch: done.workerBranch,
    pushed: false,
  };
}

async function land(ctx: SpotContext, state: RunState, hold: LandingHold): Promise<IntegrateResult> {
  const runId = state.runId;
  const cwd = state.sourceRoot;
  const landed = await alreadyLanded(state);
  if (landed) return await finish(ctx, state, landed);
  if (!ctx.config.autoIntegrateCleanSource) {
    return await refuse(ctx, state, "INTEGRATION_BLOCKED", "autoIntegrateCleanSource is off");
  }
  if (state.sourceDirty) {
    return await refuse(ctx, state, "INTEGRATION_BLOCKED", "the source had uncommitted work at prepare");
  }
  const now = await sourceFingerprint(cwd, { exclude: inputPaths(state) });
  if (now.digest !== state.sourceFingerprint.digest) {
    const body = await gitText(["log", "-1", "--format=%B", "HEAD"], { cwd });
    const byHand = body.includes(`Pi-Worker-Run: ${runId}`)
      ? {
        byHand:
          "HEAD carries this run's trailer: it was cherry-picked by hand; spot lands only its own commits",
      }
      : {};
    return await blockSourceChanged(ctx, state, now, {
      ...byHand,
      ...(hold.waitedFor ? { waitedFor: hold.waitedFor.what } : {}),
      ...unlanded(state),
    });
  }
  const task = await loadTask(ctx.store, runId);
  const verified = await landedAsVerified(ctx, state, task, now.head);
  if (verified) return await landVerified(ctx, state, now, verified, hold);
  const plan: LandingPlan = {
    repo: cwd,
    onto: now.head,
    picks: [{
      label: runId,
      runId,
      commit: state.implementationCommit!,
      identity: state.identity,
      checks: task,
    }],
    furnish: state,
    treeLabel: runId,
  };
  // The scratch tree and its checks load only here: a landing as verified (above) needs none of them.
  const landing = await lazy<typeof import("../gates/landing.ts")>("../gates/landing.ts", import.meta.url);
  await hold.declare(Date.now() + landing.landingBudgetMs(plan));
  ctx.progress?.(`integrate ${runId}: checking the landed result in a scratch tree`);
  const outcome = await landing.buildLanding(ctx, plan);
  const step = outcome.steps[0];
  if (step) {
    await ctx.store.writeJson(runId, "post-integration-verification.json", {
      ...step.checks,
      at: ctx.now(),
      commit: step.commit,
      where: "scratch worktree",
    });
    state = {
      ...state,
      sandboxDetails: withStepEnforcement(state.sandboxDetails, "check", step.checks.enforcement),
    };
  }
  if (!outcome.ok) {
    return outcome.stage === "pick"
      ? await refuse(ctx, state, "INTEGRATION_BLOCKED", outcome.reason)
      : await refuse(ctx, state, "POST_INTEGRATE_VERIFY_FAILED", `${outcome.reason}; nothing landed`);
  }
  return await landTip(ctx, state, now, outcome.tip);
}

/** Moves the source branch to `tip`, the checked result; refused (nothing landed) when the checkout moved. */
async function landTip(ctx: SpotContext, state: RunState, now: Fingerprint, tip: string) {
  const cwd = state.sourceRoot;
  // Recorded before the branch moves: a killed integrate finds it on the branch and finishes (alreadyLanded).
  state = await ctx.store.save({ ...state, landing: { commit: tip, onto: now.head, at: ctx.now() } });
  const ff = await fastForward(cwd, { from: now.head, to: tip });
  if (!ff.ok) {
    const after = await sourceFingerprint(cwd, { exclude: inputPaths(state) });
    if (after.digest !== now.digest) {
      return await blockSourceChanged(ctx, state, after, unlanded(state));
    }
    return await refuse(ctx, state, "INTEGRATION_BLOCKED", ff.reason);
  }
  return await finish(ctx, state, tip);
}

/**
 * The approved commit lands as it is: its tree is the one verify checked with these checks, on the commit it
 * lands on (gates/landed_as_verified.ts). The record says whose result stands; a scratch tree a killed landing
 * left is still reclaimed, as every landing does.
 */
async function landVerified(
  ctx: SpotContext,
  state: RunState,
  onto: Fingerprint,
  verified: LandedAsVerified,
  hold: LandingHold,
): Promise<IntegrateResult> {
  await reclaimScratchTrees(ctx, state.sourceRoot);
  await hold.declare(Date.now() + LAND_ONLY_MS);
  ctx.progress?.(
    `integrate ${state.runId}: the approved commit is the tree verify checked; landing it as it is`,
  );
  const commit = state.implementationCommit!;
  await ctx.store.writeJson(state.runId, "post-integration-verification.json", {
    passed: true,
    commands: [],
    reused: "verification.json",
    why:
      "the approved commit's parent is the HEAD it lands on: what lands is the tree verify checked, with the same checks",
    tree: verified.tree,
    verifiedAt: verified.verifiedAt,
    at: ctx.now(),
    commit,
    where: "the verified pristine tree",
  });
  return { ...await landTip(ctx, state, onto, commit), checksReused: true };
}

export async function integrateRun(
  ctx: SpotContext,
  runId: string,
  options: IntegrateOptions = {},
): Promise<IntegrateResult> {
  const lock = await ctx.store.lock(runId);
  try {
    const state = await ctx.store.load(runId);
    if (state.status === "integrated") {
      return {
        runId,
        status: state.status,
        integratedCommit: state.integratedCommit ?? undefined,
        workerBranch: state.workerBranch,
        pushed: false,
      };
    }
    requireStatus(state, ["committed"], "integrate");
    ctx.progress?.(`integrate ${runId}: checking the source checkout, then landing the approved commit`);
    return await withLanding(state.sourceRoot, {
      what: `run ${runId}`,
      held: options.landing,
      onWait: (holder) =>
        ctx.progress?.(
          `integrate ${runId}: waiting for ${holder?.what ?? "another landing"} in this repository`,
        ),
    }, (hold) => land(ctx, state, hold));
  } finally {
    lock.release();
  }
}
