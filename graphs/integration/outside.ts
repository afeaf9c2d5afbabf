/**
 * Builders that landed outside their job: a run approved and integrated by hand (`spot approve`,
 * `spot integrate --id JOB.task`) stands on the branch though the job's own integration never listed it, and
 * `spot job status` and the job page say so rather than "nothing landed".
 */
import type { JobState } from "../store.ts";
import type { IntegrationView } from "./view.ts";

/** A task as far as this needs it: its role, its run and that run's status. */
export interface TaskRun {
  id: string;
  role: string;
  runId: string | null;
  runStatus: string | null;
}

/** Pure: the builders whose run is integrated though the job's standing integration does not list it. */
export function outsideOf(
  tasks: readonly TaskRun[],
  state: Pick<JobState, "integration">,
): { task: string; runId: string }[] {
  const i = state.integration;
  const byJob = new Set(
    i && !i.rolledBackAt ? [...(i.commits ?? []), ...(i.builders ?? [])].map((c) => c.runId) : [],
  );
  return tasks.filter((t) =>
    t.role === "builder" && t.runId && !byJob.has(t.runId) && t.runStatus === "integrated"
  )
    .map((t) => ({ task: t.id, runId: t.runId! }));
}

/** The integration view with the builders landed outside named in it, and in its one-line summary. */
export function withOutside(
  integration: IntegrationView | null,
  outside: readonly { task: string; runId: string }[],
): IntegrationView | null {
  if (!outside.length) return integration;
  const named = outside.map((o) => `"${o.task}" (run ${o.runId})`).join(", ");
  const line = `builder(s) ${named} landed outside the job (spot integrate on the run), so the job's ` +
    `own integration does not list them`;
  return {
    ...(integration ?? { landed: false }),
    landedOutside: [...outside],
    summary: integration ? `${integration.summary}; ${line}` : line,
  };
}
