/**
 * Why a builder's verification did not pass, in the words `spot job status` shows: the check that failed (its
 * id from the task, its argv, how it ended) or the scan, and where to look and what to do next.
 */
import type { JobTask } from "../../schemas/job/task.ts";
import type { SpotContext } from "../../store/context.ts";

interface Recorded {
  security?: { passed?: boolean; issues?: { code?: string; message?: string }[] };
  commands?: {
    argv: string[];
    exitCode: number | null;
    timedOut?: boolean;
    signal?: string | null;
    passed: boolean;
  }[];
}

/** `VERIFICATION_FAILED: check "x" (grep -rq x .) exited 1; ...` from the run's verification.json. */
export async function verificationReason(
  ctx: SpotContext,
  task: Pick<JobTask, "id" | "checks">,
  ids: { jobId: string; runId: string },
): Promise<string> {
  const recorded = await ctx.store.readJson<Recorded>(ids.runId, "verification.json").catch(() => null);
  const failed = (recorded?.commands ?? []).map((c, i) => ({ c, i })).filter(({ c }) => !c.passed);
  const issue = recorded?.security?.passed === false ? recorded.security.issues?.[0] : undefined;
  const what = failed.length
    ? failed.slice(0, 3).map(({ c, i }) => {
      const id = task.checks?.[i]?.id;
      const how = c.timedOut
        ? "timed out"
        : c.exitCode === null
        ? `ended by ${c.signal ?? "a signal"}`
        : `exited ${c.exitCode}`;
      return `check ${id ? `"${id}" ` : ""}(${c.argv.join(" ").slice(0, 120)}) ${how}`;
    }).join(", ") + (failed.length > 3 ? ` and ${failed.length - 3} more` : "")
    : issue
    ? `scan ${issue.code ?? "finding"}: ${(issue.message ?? "").slice(0, 200)}`
    : "spot's checks or scans did not pass";
  return `VERIFICATION_FAILED: ${what}; its output: spot inspect --id ${ids.runId}; ` +
    `a new attempt: spot job repair ${ids.jobId} ${task.id} TEXT`;
}
