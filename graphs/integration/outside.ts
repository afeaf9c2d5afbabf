/**
 * Builders that landed outside their job: a run approved and integrated by hand (`spot approve`,
 * `spot integrate --id JOB.task`) stands on the branch though the job's own integration never listed it, and
 * `spot job status` says so rather than "nothing landed".
 */
import type { SpotContext } from "../../store/context.ts";
import type { JobState } from "../store.ts";

/** The builders whose run was integrated by hand (`spot integrate --id JOB.task`), not by the job's landing. */
export async function landedOutside(
  ctx: SpotContext,
  tasks: readonly { id: string; role: string }[],
  state: JobState,
): Promise<{ task: string; runId: string }[]> {
  const i = state.integration;
  const byJob = new Set(
    i && !i.rolledBackAt ? [...(i.commits ?? []), ...(i.builders ?? [])].map((c) => c.runId) : [],
  );
  const out: { task: string; runId: string }[] = [];
  for (const t of tasks) {
    const runId = state.tasks[t.id]?.runId;
    if (t.role !== "builder" || !runId || byJob.has(runId)) continue;
    const run = await ctx.store.load(runId).catch(() => null);
    if (run?.status === "integrated") out.push({ task: t.id, runId });
  }
  return out;
}
