/**
 * One worker turn (run, revise or self-review): attempts until one succeeds,
 * a transient failure retried once and then carried along the profile's
 * fallback chain. Every attempt spent tokens, so the turn's usage is their sum.
 */
import type { TurnBudget } from "./budget.ts";
import type { WorkerOutcome } from "../adapters/types.ts";
import { withStepEnforcement } from "../isolation/enforcement.ts";
import { nextFallback } from "../routing/fallback.ts";
import type { Phase } from "../schemas/events.ts";
import { addUsage } from "../schemas/usage_sum.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { Enforcement } from "../schemas/sandbox_record.ts";
import type { Capability } from "../schemas/task_contract.ts";
import type { z } from "zod";
import type { SpotContext } from "../store/context.ts";
import { attempt } from "./attempt.ts";
import { failure } from "./outcome.ts";

type CapabilityName = z.infer<typeof Capability>;

/** The seed retries a transient failure exactly once. */
const MAX_ATTEMPTS = 2;

export interface PhaseResult {
  outcome: WorkerOutcome;
  attempts: number;
  durationMs: number;
  /** Set when a transient failure moved the turn along the profile's fallback chain. */
  switched?: Pick<RunState, "profile" | "adapter" | "provider" | "model">;
  /** What the last launched attempt's sandbox enforced; null without an OS sandbox or a launch. */
  enforcement: Enforcement | null;
}

function retryable(ctx: SpotContext, outcome: WorkerOutcome): boolean {
  return !outcome.ok && outcome.failure?.class === "transient" && !ctx.signal?.aborted;
}

/** The state after a turn: its usage, cost, time and attempts added, its profile switch and sandbox kept. */
export function withTurn(state: RunState, phase: Phase, result: PhaseResult): RunState {
  return {
    ...state,
    workerUsage: addUsage(state.workerUsage, result.outcome.usage),
    workerCostUsd: state.workerCostUsd + result.outcome.costUsd,
    workerDurationMs: state.workerDurationMs + result.durationMs,
    workerAttempts: state.workerAttempts + result.attempts,
    sandboxDetails: withStepEnforcement(
      state.sandboxDetails,
      phase === "self-review" ? "self-review" : "worker",
      result.enforcement,
    ),
    ...(result.switched ? { ...result.switched, fallbackUsed: true } : {}),
  };
}

/** A follow-up turn of a run (`spot agent send`): its own files, and the session it continues. */
export interface FollowUp {
  /** Names the turn's prompt file and homes (`follow-up-2`), apart from the first turn's. */
  label: string;
  resumeSession: string;
}

/** The budget after `spentUsd` went on earlier attempts of the same turn. */
function left(budget: TurnBudget | undefined, spentUsd: number): TurnBudget | undefined {
  if (budget?.costUsd === undefined) return budget;
  return { ...budget, costUsd: Math.max(0, budget.costUsd - spentUsd) };
}

export async function runWorkerPhase(
  ctx: SpotContext,
  state: RunState,
  phase: Phase,
  prompt: string,
  options: {
    /** What the task needs; a fallback profile without it is never tried. */
    requiredCapabilities: readonly CapabilityName[];
    followUp?: FollowUp;
    /** The turn may only read (a job's read-only roles): under an OS sandbox the worktree is read-only. */
    readOnly?: boolean;
    /** What the turn may spend (a job task's share); each retry or fallback gets what the earlier ones left. */
    budget?: TurnBudget;
    /** A job's research turn: the CLI's web tools, to these hosts only under the OS sandbox. */
    web?: { hosts: string[] };
    /** Files the worker may read besides its worktree, read-only. */
    attachments?: string[];
  },
): Promise<PhaseResult> {
  const label = options.followUp?.label ?? `${phase}-r${state.revisionRound}`;
  const promptFile = ctx.store.file(state.runId, `prompt-${label}.md`);
  await Deno.writeTextFile(promptFile, prompt, { mode: 0o600 });
  const started = Date.now();
  let outcome: WorkerOutcome = failure("cli_crash", "permanent", "The worker did not run");
  let enforcement: Enforcement | null = null;
  let n = 0;
  let usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let costUsd = 0;
  let current = state;
  const tried = [state.profile];
  for (;;) {
    for (let tries = 0; tries < MAX_ATTEMPTS; tries++) {
      n++;
      const result = await attempt(ctx, current, phase, {
        file: promptFile,
        text: prompt,
        label,
        resumeSession: options.followUp?.resumeSession,
        readOnly: options.readOnly,
        budget: left(options.budget, costUsd),
        web: options.web,
        attachments: options.attachments,
      }, n);
      enforcement = result.enforcement ?? enforcement;
      usage = addUsage(usage, result.outcome.usage);
      costUsd += result.outcome.costUsd;
      outcome = { ...result.outcome, usage, costUsd };
      if (!retryable(ctx, outcome)) break;
      if (tries + 1 < MAX_ATTEMPTS) {
        await ctx.store.event(state.runId, {
          type: "note",
          message: `Retrying the ${phase} turn after: ${outcome.failure!.message}`,
        });
      }
    }
    // A resumed session belongs to its profile's CLI: another profile could not continue it.
    if (!retryable(ctx, outcome) || options.followUp) break;
    // Only a transient failure follows the chain: auth, capability and quota walls are not routed around.
    const next = nextFallback(ctx.config, current.profile, tried, options);
    if (!next) break;
    tried.push(next);
    const p = ctx.config.profiles[next];
    current = {
      ...current,
      profile: next,
      adapter: p.adapter,
      provider: p.provider,
      model: p.model,
      fallbackUsed: true,
    };
    await ctx.store.event(state.runId, {
      type: "note",
      message: `Falling back to profile ${next} after: ${outcome.failure!.message}`,
    });
  }
  const switched = current.profile === state.profile ? undefined : {
    profile: current.profile,
    adapter: current.adapter,
    provider: current.provider,
    model: current.model,
  };
  return { outcome, attempts: n, durationMs: Date.now() - started, switched, enforcement };
}
