/**
 * A job task's result, read where the worker's session lives: on the executor. When the worker's last words
 * cannot be read as its result, it gets the one report-only repair turn a local run gets (graphs/task_run.ts), in
 * the same session; the origin then reads the result from the events it imports and never repairs it itself.
 */
import { z } from "zod";
import { repairPrompt } from "../graphs/prompt.ts";
import { readResult, unboundVerdict } from "../graphs/result.ts";
import type { WorkItem } from "../queue/item.ts";
import { JobTask } from "../schemas/job/task.ts";
import type { SpotContext } from "../store/context.ts";
import { runWorker } from "../verbs/run.ts";

async function lastWords(ctx: SpotContext, runId: string): Promise<{ text: string; session?: string }> {
  const events = await ctx.store.events(runId);
  const last = events.findLast((e) => e.type === "worker_result" || e.type === "worker_text");
  let session: string | undefined;
  for (const e of events) if (e.type === "worker_start" && e.sessionId) session = e.sessionId;
  return { text: last && "text" in last ? last.text ?? "" : "", session };
}

export async function repairJobResult(ctx: SpotContext, runId: string, item: WorkItem): Promise<void> {
  if (!item.jobResult) return;
  const tasks = z.array(JobTask).parse(item.jobResult.tasks);
  const task = tasks.find((t) => t.id === item.jobResult!.task);
  if (!task) return;
  const { text, session } = await lastWords(ctx, runId);
  const read = readResult(text, tasks, task);
  // As the origin reads it (graphs/task_result.ts): a range's verdict must echo the fingerprint it was shown.
  const unbound = read.ok ? unboundVerdict(read.result, item.jobResult.bound ?? {}) : null;
  const first = unbound ? { ok: false as const, problem: unbound } : read;
  // Without a session there is nothing to repair in; the origin reports the problem (RESULT_INVALID).
  if (first.ok || !session) return;
  await ctx.store.event(runId, { type: "note", message: `Result repair turn: ${first.problem}` });
  const budget = item.turn.budget;
  const spent = (await ctx.store.load(runId)).workerCostUsd;
  await runWorker(ctx, runId, {
    prompt: repairPrompt(task.role, first.problem),
    followUp: { label: "result-repair", resumeSession: session },
    readOnly: true,
    budget: budget?.costUsd === undefined
      ? budget
      : { ...budget, costUsd: Math.max(0, budget.costUsd - spent) },
  });
}
