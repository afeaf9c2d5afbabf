/**
 * `integrate`: land the approved commit on the user's clean source branch
 * (cherry-pick, hooks off), then re-run the checks there. Never pushes. Any
 * doubt about the source leaves the work on the worker branch, blocked.
 */
import { SpotError } from "../errors.ts";
import { withStepEnforcement } from "../isolation/enforcement.ts";
import { describeChange, sourceFingerprint } from "../git/fingerprint.ts";
import { git, gitText } from "../git/git.ts";
import type { RunState, SourceFingerprint } from "../schemas/run_state.ts";
import { runChecks } from "../gates/checks.ts";
import type { SpotContext } from "../store/context.ts";
import { requireStatus } from "../lifecycle/state_table.ts";
import { loadTask } from "../store/task_file.ts";
import { moveRun } from "../lifecycle/move.ts";

/** What `integrate` did with the approved commit. */
export interface IntegrateResult {
  /** The run. */
  runId: string;
  /** The run's status afterwards (`prepared`, `running`, `reviewing`, `approved`, `integrated`, `blocked`, ...). */
  status: string;
  /** The commit on the source branch, when it was cherry-picked. */
  integratedCommit?: string;
  /** Why it was not integrated (a dirty checkout, another branch), when it was not. */
  reason?: string;
  /** The branch that holds the approved commit either way. */
  workerBranch: string;
  /** Always false: spot never pushes. */
  pushed: false;
}

async function block(ctx: SpotContext, state: RunState, code: string, reason: string): Promise<never> {
  await moveRun(ctx, state, "blocked", reason, {
    failure: { code, message: reason },
    blockedReason: reason,
  });
  throw new SpotError(
    code === "POST_INTEGRATE_VERIFY_FAILED" ? code : "INTEGRATION_BLOCKED",
    `Run "${state.runId}" is blocked: ${reason}`,
    {
      details: {
        runId: state.runId,
        workerBranch: state.workerBranch,
        implementationCommit: state.implementationCommit,
        pushed: false,
      },
    },
  );
}

/** True when HEAD is our cherry-pick of this run on top of the expected source head. */
async function alreadyPicked(state: RunState, expectedHead: string): Promise<string | null> {
  const cwd = state.sourceRoot;
  const parent = await git(["rev-parse", "HEAD^"], { cwd, allowFailure: true });
  if (parent.stdout.trim() !== expectedHead) return null;
  const body = await gitText(["log", "-1", "--format=%B", "HEAD"], { cwd });
  return body.includes(`Pi-Worker-Run: ${state.runId}`)
    ? await gitText(["rev-parse", "HEAD"], { cwd })
    : null;
}

export interface IntegrateOptions {
  /**
   * The source as the caller left it, instead of as the run found it at prepare: a job integrating several
   * builders in turn expects its own earlier cherry-picks (docs/jobs.md), and nothing else.
   */
  expect?: SourceFingerprint;
}

export async function integrateRun(
  ctx: SpotContext,
  runId: string,
  options: IntegrateOptions = {},
): Promise<IntegrateResult> {
  const lock = await ctx.store.lock(runId);
  try {
    let state = await ctx.store.load(runId);
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
    const cwd = state.sourceRoot;
    const expected = options.expect ?? state.sourceFingerprint;
    let picked = await alreadyPicked(state, options.expect?.head ?? state.sourceHead);
    if (!picked) {
      if (!ctx.config.autoIntegrateCleanSource) {
        await block(ctx, state, "INTEGRATION_BLOCKED", "autoIntegrateCleanSource is off");
      }
      if (state.sourceDirty) {
        await block(ctx, state, "INTEGRATION_BLOCKED", "the source had uncommitted work at prepare");
      }
      const now = await sourceFingerprint(cwd);
      if (now.dirty) {
        await block(ctx, state, "INTEGRATION_BLOCKED", "the source checkout has uncommitted changes");
      }
      if (now.digest !== expected.digest) {
        await block(
          ctx,
          state,
          "INTEGRATION_BLOCKED",
          `the source moved: ${describeChange(expected, now).join("; ")}`,
        );
      }
      const pick = await git(["cherry-pick", "--no-edit", "--allow-empty", state.implementationCommit!], {
        cwd,
        identity: state.identity,
        allowFailure: true,
      });
      if (pick.exitCode !== 0) {
        await git(["cherry-pick", "--abort"], { cwd, allowFailure: true });
        await block(
          ctx,
          state,
          "INTEGRATION_BLOCKED",
          `cherry-pick failed: ${pick.stderr.trim().split("\n")[0]}`,
        );
      }
      picked = await gitText(["rev-parse", "HEAD"], { cwd });
    }
    state = await ctx.store.save({ ...state, integratedCommit: picked, updatedAt: ctx.now() });
    const checks = await runChecks(ctx, runId, await loadTask(ctx.store, runId), cwd);
    await ctx.store.writeJson(runId, "post-integration-verification.json", {
      ...checks,
      at: ctx.now(),
      commit: picked,
    });
    state = {
      ...state,
      sandboxDetails: withStepEnforcement(state.sandboxDetails, "check", checks.enforcement),
    };
    if (!checks.passed) {
      await block(
        ctx,
        state,
        "POST_INTEGRATE_VERIFY_FAILED",
        `the checks failed on the source branch after integration (commit ${
          picked.slice(0, 12)
        } stays in history)`,
      );
    }
    state = await moveRun(ctx, state, "integrated", `integrated as ${picked.slice(0, 12)}`);
    return {
      runId,
      status: state.status,
      integratedCommit: picked,
      workerBranch: state.workerBranch,
      pushed: false,
    };
  } finally {
    lock.release();
  }
}
