/**
 * `spot job integrate JOB` (commit mode here, apply mode in apply.ts): once every task succeeded and every builder is approved by a reviewer
 * whose verdict echoes the builder's current fingerprint (REVIEW_STALE otherwise), each builder's verified tree
 * is committed (`approve`) and cherry-picked onto the source branch in `after` order (`integrate`, which
 * re-runs the builder's checks there), then the job's `integratedChecks` run on the result.
 */
import { join } from "../../base/path.ts";
import { SpotError } from "../../errors.ts";
import { sourceFingerprint } from "../../git/fingerprint.ts";
import { runChecks } from "../../gates/checks.ts";
import type { JobTask } from "../../schemas/job/task.ts";
import type { SpotContext } from "../../store/context.ts";
import { writeJsonAtomic } from "../../store/files.ts";
import { loadTask } from "../../store/task_file.ts";
import { approveRun } from "../../verbs/approve.ts";
import { integrateRun } from "../../verbs/integrate.ts";
import { reviewTargets, verdicts } from "../result.ts";
import { moveRun } from "../../lifecycle/move.ts";
import { applyBuilders } from "./apply.ts";
import {
  appendEvent,
  jobFile,
  type JobIntegration,
  type JobState,
  loadJob,
  type StoredJob,
  updateJob,
} from "../store.ts";

/** The tasks in an order where each comes after everything in its `after` (the job's order otherwise). */
export function afterOrder(tasks: readonly JobTask[]): JobTask[] {
  const done = new Set<string>();
  const out: JobTask[] = [];
  while (out.length < tasks.length) {
    const next = tasks.find((t) => !done.has(t.id) && t.after.every((a) => done.has(a)));
    if (!next) break; // a cycle: validation refuses one before anything runs
    done.add(next.id);
    out.push(next);
  }
  return out;
}

/** Who approved each builder, or why integration is refused (REVIEW_GATE, REVIEW_STALE). */
export function requireApprovals(tasks: readonly JobTask[], state: JobState, builders: JobTask[]): string[] {
  return builders.map((b) => {
    const current = state.tasks[b.id].fingerprint;
    const given = tasks
      .filter((r) => reviewTargets(tasks, r).includes(b.id))
      .flatMap((r) => verdicts(state.tasks[r.id].result).map((v) => ({ r, v })))
      .filter(({ v }) => v.taskId === b.id);
    const approving = given.filter(({ v }) => v.verdict === "approve");
    if (!approving.length) {
      const asked = given.find(({ v }) => v.verdict === "changes_requested");
      throw new SpotError(
        "REVIEW_GATE",
        asked
          ? `Cannot integrate builder "${b.id}": reviewer "${asked.r.id}" requested changes`
          : `Cannot integrate builder "${b.id}": no reviewer task approved it`,
        { details: { task: b.id } },
      );
    }
    const fresh = approving.find(({ v }) => v.fingerprint === current);
    if (!fresh) {
      const { r, v } = approving[0];
      throw new SpotError(
        "REVIEW_STALE",
        `Cannot integrate builder "${b.id}": reviewer "${r.id}" approved fingerprint ${
          v.fingerprint.slice(0, 12)
        }, but its current result is ${current?.slice(0, 12) ?? "unknown"}`,
        { details: { task: b.id, reviewer: r.id, reviewed: v.fingerprint, current } },
      );
    }
    return fresh.r.id;
  });
}

/** Commit mode: each approved builder cherry-picked in turn; a later pick expects the source as the last left it. */
async function commitBuilders(ctx: SpotContext, job: StoredJob, state: JobState, builders: JobTask[]) {
  const commits: NonNullable<JobIntegration["commits"]> = [];
  let expect = undefined;
  for (const b of builders) {
    const runId = state.tasks[b.id].runId!;
    const done = await integrateRun(ctx, runId, expect ? { expect } : {});
    commits.push({ task: b.id, runId, commit: done.integratedCommit! });
    expect = await sourceFingerprint(job.cwd);
  }
  return commits;
}

export async function integrateJob(
  ctx: SpotContext,
  jobId: string,
): Promise<JobIntegration & { jobId: string }> {
  const { job, state } = await loadJob(ctx.paths, jobId);
  if (state.integration) return { jobId, ...state.integration };
  const refuse = (why: string) => {
    throw new SpotError("JOB_INVALID", `Cannot integrate job "${jobId}": ${why}`, { details: { jobId } });
  };
  if (!job.allowWrites) refuse("it does not allow writes");
  if (state.status !== "succeeded") refuse(`it is ${state.status}; every task must succeed first`);
  const builders = afterOrder(job.tasks).filter((t) => t.role === "builder");
  if (!builders.length) refuse("it has no builder");
  const reviewers = requireApprovals(job.tasks, state, builders);
  // Approve every builder first: approval checks the source is as each run found it, which a pick changes.
  for (const [i, b] of builders.entries()) {
    const runId = state.tasks[b.id].runId!;
    const verification = await ctx.store.readJson<{ diffSha256: string }>(runId, "verification.json");
    const reviewFile = join(jobFile(ctx.paths, jobId, "tasks"), b.id, "review.json");
    await writeJsonAtomic(reviewFile, {
      schemaVersion: 1,
      verdict: "approve",
      diffSha256: verification?.diffSha256 ?? "",
      findings: [],
      verificationGaps: [],
      summary: `Approved by reviewer task "${reviewers[i]}" of job ${jobId}.`,
    });
    await approveRun(ctx, runId, reviewFile, `${b.id}: ${b.task.split("\n")[0]}`.slice(0, 200));
  }
  const landed = job.config.integration === "apply"
    ? { files: await applyBuilders(ctx, job, state, builders) }
    : { commits: await commitBuilders(ctx, job, state, builders) };
  if (landed.files) {
    // The work is in the checkout: each builder's run ends too (its approved commit stays on its branch).
    for (const b of builders) {
      const runId = state.tasks[b.id].runId!;
      await moveRun(
        ctx,
        await ctx.store.load(runId),
        "integrated",
        `applied to the checkout by job ${jobId}`,
      );
    }
  }
  const last = state.tasks[builders.at(-1)!.id].runId!;
  const contract = await loadTask(ctx.store, last);
  const checks = job.integratedChecks.length
    ? await runChecks(ctx, last, {
      ...contract,
      verification: job.integratedChecks.map((c) => ({
        argv: c.argv,
        timeoutSeconds: Math.ceil(c.timeoutMs / 1000),
      })),
    }, job.cwd)
    : null;
  const integration: JobIntegration = {
    mode: job.config.integration,
    at: ctx.now(),
    ...landed,
    integratedChecks: checks ? (checks.passed ? "passed" : "failed") : "none",
  };
  await updateJob(ctx.paths, jobId, (_, s) => ({ state: { ...s, updatedAt: integration.at, integration } }));
  await appendEvent(ctx.paths, jobId, { at: integration.at, type: "job", state: "integrated" });
  if (checks && !checks.passed) {
    throw new SpotError(
      "POST_INTEGRATE_VERIFY_FAILED",
      `Job "${jobId}" integrated, but its integratedChecks failed on the source branch (the commits stay in history)`,
      { details: { jobId, ...integration } },
    );
  }
  return { jobId, ...integration };
}
