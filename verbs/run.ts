/** `run`: the worker's implementation turn, from prepared to verifying. */
import type { TurnBudget } from "../worker/budget.ts";
import type { RunOwner } from "../schemas/run_state.ts";
import { SpotError } from "../errors.ts";
import type { SpotContext } from "../store/context.ts";
import { failTurn } from "../lifecycle/outcome.ts";
import { requireBaselines } from "../gates/baselines.ts";
import { guardEscape } from "../gates/escape_check.ts";
import { implementationPrompt } from "../worker/prompt.ts";
import { requireStatus } from "../lifecycle/state_table.ts";
import { loadTask } from "../store/task_file.ts";
import { type FollowUp, runWorkerPhase, withTurn } from "../worker/phase.ts";
import { moveRun, resumeRun } from "../lifecycle/move.ts";
import { withSlotFor } from "../lifecycle/admit.ts";

/** What `run` did: the worker's turn and who did it. */
export interface RunResult {
  /** The run. */
  runId: string;
  /** The run's status afterwards (`prepared`, `running`, `reviewing`, `approved`, `integrated`, `blocked`, ...). */
  status: string;
  /** The profile that ran the turn (a fallback's when one was used). */
  profile: string;
  /** The provider it reached. */
  provider: string;
  /** The model it used. */
  model: string;
  /** A fallback profile ran after the first one failed. */
  fallbackUsed: boolean;
  /** Worker turns started, fallbacks and retries included. */
  attempts: number;
}

export interface RunOptions {
  /** The worker's instructions instead of the contract's (a named agent's free-form brief). */
  prompt?: string;
  /** Another turn of a run whose turn finished, resuming the worker's session (`spot agent send`). */
  followUp?: FollowUp;
  /** The turn may only read: under an OS sandbox the worktree is mounted read-only (a job's read-only roles). */
  readOnly?: boolean;
  /** What the turn may spend before spot stops it (a job task's share of the job's budget). */
  budget?: TurnBudget;
  /** A job's research turn: the CLI's web tools, reaching only these hosts under the OS sandbox. */
  web?: { hosts: string[] };
  /** Files the worker may read besides its worktree (a job reviewer's patch), read-only under the OS sandbox. */
  attachments?: string[];
  /** Who drives the turn (a named agent's driver): recorded on the run when it starts. */
  owner?: RunOwner;
}

export async function runWorker(
  ctx: SpotContext,
  runId: string,
  options: RunOptions = {},
): Promise<RunResult> {
  const lock = await ctx.store.lock(runId);
  try {
    let state = await ctx.store.load(runId);
    if (!options.followUp) requireStatus(state, ["prepared"], "run");
    if (!state.worktreeReady) {
      throw new SpotError("STATE_INVALID", `Cannot run "${runId}": its worktree was never finished`, {
        details: { nextCommand: `spot recover --id ${runId}` },
      });
    }
    const task = await loadTask(ctx.store, runId);
    await requireBaselines(ctx, state);
    if (options.owner) state = { ...state, owner: options.owner };
    const before = state;
    // A follow-up turn of a finished brief takes a run slot again (lifecycle/slots.ts).
    state = await withSlotFor(
      ctx,
      before,
      "running",
      () =>
        options.followUp
          ? resumeRun(ctx, before, `follow-up turn ${options.followUp.label} of worker ${before.profile}`)
          : moveRun(ctx, before, "running", `worker ${before.profile} started`),
    );
    const result = await runWorkerPhase(
      ctx,
      state,
      "run",
      options.prompt ?? implementationPrompt(task),
      {
        requiredCapabilities: task.requiredCapabilities,
        followUp: options.followUp,
        readOnly: options.readOnly,
        budget: options.budget,
        web: options.web,
        attachments: options.attachments,
      },
    );
    state = withTurn(state, "run", result);
    await guardEscape(ctx, state, "run");
    if (!result.outcome.ok) await failTurn(ctx, state, "run", result.outcome);
    state = await moveRun(ctx, state, "verifying", "worker finished");
    return {
      runId,
      status: state.status,
      profile: state.profile,
      provider: state.provider,
      model: state.model,
      fallbackUsed: state.fallbackUsed,
      attempts: result.attempts,
    };
  } finally {
    lock.release();
  }
}
