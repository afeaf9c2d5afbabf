/**
 * What a job landed, as `spot job status` and the dashboard show it: exactly what stands on the user's branch
 * or checkout now (a landing is all or nothing, so that is the whole record or none of it), what was rolled
 * back, and why the last attempt landed nothing. Pure.
 */
import type { IntegrationFailure, JobIntegration, JobState } from "../store.ts";

export interface IntegrationView extends Partial<JobIntegration> {
  /** Something of this job stands on the branch or in the checkout now. */
  landed: boolean;
  /** The last `spot job integrate` that landed nothing, and why (cleared by one that lands). */
  failure?: IntegrationFailure;
  /** Builders whose runs were landed by hand (`spot integrate --id JOB.task`), outside the job's integration. */
  landedOutside?: { task: string; runId: string }[];
  /** The same, in one line for a person. */
  summary: string;
}

const short = (sha: string | undefined) => (sha ?? "").slice(0, 12);

function what(i: JobIntegration): string {
  if (i.commits) {
    return `${i.commits.length} commit(s) on ${short(i.onto) || "the branch"}: ${
      i.commits.map((c) => `${c.task} ${short(c.commit)}`).join(", ")
    }`;
  }
  const from = i.builders?.length ? ` from ${i.builders.map((b) => b.task).join(", ")}` : "";
  return `${i.files?.length ?? 0} file(s)${from} written into the checkout`;
}

/** Null when the job was never integrated nor tried. */
export function integrationView(
  state: Pick<JobState, "integration" | "integrationFailure">,
): IntegrationView | null {
  const i = state.integration;
  const failure = state.integrationFailure;
  if (!i && !failure) return null;
  const parts: string[] = [];
  if (i) {
    const checks = `integrated checks ${i.integratedChecks}`;
    parts.push(
      i.rolledBackAt
        ? `${what(i)} at ${i.at}, rolled back at ${i.rolledBackAt}: none of it stands`
        : `landed (${i.mode} mode) at ${i.at}: ${what(i)}; ${checks}`,
    );
  }
  if (failure) {
    const where = failure.task ? ` at builder "${failure.task}"` : "";
    parts.push(
      `nothing landed by the last attempt (${failure.at})${where}: ${failure.code}: ${failure.reason}`,
    );
  }
  return {
    ...(i ?? {}),
    landed: i !== undefined && !i.rolledBackAt,
    ...(failure ? { failure } : {}),
    summary: parts.join("; "),
  };
}
