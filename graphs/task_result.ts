/**
 * Reading a task's result from its run: the worker's final text, held to its role's rules (graphs/result.ts)
 * and to the change it was shown; one report-only repair turn (read-only, in the same session) when it cannot
 * be read; RESULT_INVALID with the problem when it still cannot.
 */
import { SpotError } from "../errors.ts";
import type { JobTask } from "../schemas/job/task.ts";
import type { TaskResult } from "../schemas/job/result.ts";
import type { SpotContext } from "../store/context.ts";
import { runWorker } from "../verbs/run.ts";
import type { TurnBudget } from "../worker/budget.ts";
import { repairPrompt } from "./prompt.ts";
import { readResult, type ResultRead, unboundVerdict } from "./result.ts";
import type { StoredJob } from "./store.ts";

/** The worker's last words: its result event, or its last text where the CLI's stream has no result (opencode). */
async function finalText(ctx: SpotContext, runId: string): Promise<string> {
  const events = await ctx.store.events(runId);
  const last = events.findLast((e) => e.type === "worker_result" || e.type === "worker_text");
  return last && "text" in last ? last.text ?? "" : "";
}

/** The session the worker's turn ran in, so the repair turn can continue it. */
async function sessionOf(ctx: SpotContext, runId: string): Promise<string | undefined> {
  let session: string | undefined;
  for (const e of await ctx.store.events(runId)) {
    if (e.type === "worker_start" && e.sessionId) session = e.sessionId;
  }
  return session;
}

/** What the repair turn may still spend: the task's share less what its first turn spent. */
async function budgetLeft(ctx: SpotContext, runId: string, budget: TurnBudget | undefined) {
  if (budget?.costUsd === undefined) return budget;
  const spent = (await ctx.store.load(runId)).workerCostUsd;
  return { ...budget, costUsd: Math.max(0, budget.costUsd - spent) };
}

export interface ResultOptions {
  runId: string;
  budget?: TurnBudget;
  /** Fingerprints the reviewer was shown that its verdicts must echo (a `reviewBase` range's). */
  bound?: Record<string, string>;
  /** The turn ran on an executor, which had the repair turn in the worker's session (docs/fleet.md). */
  placed?: boolean;
}

async function read(
  ctx: SpotContext,
  job: StoredJob,
  task: JobTask,
  options: ResultOptions,
): Promise<ResultRead> {
  const read = readResult(await finalText(ctx, options.runId), job.tasks, task);
  if (!read.ok) return read;
  const problem = unboundVerdict(read.result, options.bound ?? {});
  return problem ? { ok: false, problem } : read;
}

export async function taskResult(
  ctx: SpotContext,
  job: StoredJob,
  task: JobTask,
  options: ResultOptions,
): Promise<{ result: TaskResult; repaired: boolean }> {
  const { runId } = options;
  const first = await read(ctx, job, task, options);
  if (first.ok) return { result: first.result, repaired: false };
  if (options.placed) {
    throw new SpotError("RESULT_INVALID", `${first.problem} (after the executor's repair turn)`);
  }
  const session = await sessionOf(ctx, runId);
  if (!session) throw new SpotError("RESULT_INVALID", `${first.problem} (no session to repair it in)`);
  await ctx.store.event(runId, { type: "note", message: `Result repair turn: ${first.problem}` });
  await runWorker(ctx, runId, {
    prompt: repairPrompt(task.role, first.problem),
    followUp: { label: "result-repair", resumeSession: session },
    readOnly: true,
    budget: await budgetLeft(ctx, runId, options.budget),
  });
  const second = await read(ctx, job, task, options);
  if (second.ok) return { result: second.result, repaired: true };
  throw new SpotError("RESULT_INVALID", `${second.problem} (after one repair turn)`);
}
