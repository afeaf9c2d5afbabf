/**
 * `spot job integrate JOB`: every approved builder lands, or none does.
 *
 * Under the repository's landing lock (git/landing_lock.ts): the checkout's HEAD must still be the one the
 * job started from (SOURCE_CHANGED otherwise); each builder's run is approved (`spot approve`'s gates, its
 * verified tree committed on its branch); then, in a scratch worktree (gates/landing.ts), the builders' commits
 * are cherry-picked in `after` order, each builder's checks run after its pick and the job's
 * `integratedChecks` after the last. Only when all of that passed does the user's repository change, in one
 * step: the branch fast-forwarded to the last commit (commit mode, commit.ts) or the files written from the
 * journal (apply mode, apply.ts). A refusal at any point names the builder and the reason, is recorded as the
 * job's `integrationFailure`, leaves the checkout and branch as they were, and the job integrable again.
 */
import { join } from "../../base/path.ts";
import { isSpotError, SpotError } from "../../errors.ts";
import { sourceFingerprint } from "../../git/fingerprint.ts";
import { buildLanding, type CheckedStep, landingBudgetMs, type LandingPlan } from "../../gates/landing.ts";
import { moveRun } from "../../lifecycle/move.ts";
import { TERMINAL } from "../../schemas/constants.ts";
import type { JobTask } from "../../schemas/job/task.ts";
import type { SpotContext } from "../../store/context.ts";
import { writeJsonAtomic } from "../../store/files.ts";
import { withLanding } from "../../git/landing_lock.ts";
import { loadTask } from "../../store/task_file.ts";
import { approveRun } from "../../verbs/approve.ts";
import {
  appendEvent,
  jobFile,
  type JobIntegration,
  type JobState,
  loadJob,
  type StoredJob,
  updateJob,
} from "../store.ts";
import type { JobBase } from "../launch/base.ts";
import { afterOrder, notYet, requireApprovals } from "./approvals.ts";
import { applyLanding } from "./apply.ts";
import { finishedLanding, landCommits } from "./commit.ts";
import { journalDir } from "./journal.ts";
import { priorLanding, refusedAfterApproval } from "./prior.ts";

export { afterOrder, requireApprovals } from "./approvals.ts";

const FINAL = "integratedChecks";

/** The integration that stands: recorded and not rolled back. */
const standing = (state: JobState) =>
  state.integration && !state.integration.rolledBackAt ? state.integration : null;

/** Where the job's tasks started; a job from before bases were recorded started at its first builder's HEAD. */
async function baseOf(ctx: SpotContext, state: JobState, first: string): Promise<JobBase> {
  if (state.base) return state.base;
  const run = await ctx.store.load(first);
  return { head: run.sourceHead, commit: run.startCommit ?? run.workerBaseRevision };
}

/** The checkout's HEAD must be the one the builders were built and checked on. */
async function requireSource(job: StoredJob, base: JobBase): Promise<void> {
  const now = await sourceFingerprint(job.cwd);
  if (now.head === base.head) return;
  throw new SpotError(
    "SOURCE_CHANGED",
    `Cannot integrate job "${job.jobId}": the checkout moved since the job started: HEAD moved from ${
      base.head.slice(0, 12)
    } to ${now.head.slice(0, 12)}; nothing landed`,
    {
      details: {
        jobId: job.jobId,
        source: {
          before: { head: base.head },
          now: { head: now.head, branch: now.branch, dirty: now.dirty },
        },
        hint: `the builders were built and checked on ${
          base.head.slice(0, 12)
        }: check that commit out again to integrate, or land each builder's commit (its run's worker branch) by hand`,
      },
    },
  );
}

/** Each builder's run approved: its gates re-run, its verified tree committed on its branch. */
async function approveBuilders(ctx: SpotContext, job: StoredJob, state: JobState, builders: JobTask[]) {
  const reviewers = requireApprovals(job.tasks, state, builders);
  for (const [i, b] of builders.entries()) {
    const runId = state.tasks[b.id].runId!;
    const verification = await ctx.store.readJson<{ diffSha256: string }>(runId, "verification.json");
    const reviewFile = join(jobFile(ctx.paths, job.jobId, "tasks"), b.id, "review.json");
    await writeJsonAtomic(reviewFile, {
      schemaVersion: 1,
      verdict: "approve",
      diffSha256: verification?.diffSha256 ?? "",
      findings: [],
      verificationGaps: [],
      summary: `Approved by reviewer task "${reviewers[i]}" of job ${job.jobId}.`,
    });
    const message = `${b.id}: ${b.task.split("\n")[0]}`.slice(0, 200);
    if (refusedAfterApproval(await ctx.store.load(runId))) continue;
    try {
      await approveRun(ctx, runId, reviewFile, message, { sourceCheckedByCaller: true });
    } catch (error) {
      if (!isSpotError(error)) throw error;
      throw new SpotError(error.code, `Cannot integrate builder "${b.id}": ${error.message}`, {
        details: { ...error.details, task: b.id },
      });
    }
  }
}

/** The landing of `rest` (the builders not on the branch yet) onto `onto`, then the job's checks. */
async function planOf(ctx: SpotContext, job: StoredJob, state: JobState, rest: JobTask[], onto: string) {
  const picks: LandingPlan["picks"] = [];
  for (const b of rest) {
    const runId = state.tasks[b.id].runId!;
    const run = await ctx.store.load(runId);
    const checks = await loadTask(ctx.store, runId);
    picks.push({ label: b.id, runId, commit: run.implementationCommit!, identity: run.identity, checks });
  }
  const builders = job.tasks.filter((t) => t.role === "builder");
  const last = picks.at(-1)?.runId ?? state.tasks[builders.at(-1)!.id].runId!;
  const contract = await loadTask(ctx.store, last);
  const final = job.integratedChecks.length
    ? {
      label: FINAL,
      runId: last,
      contract: {
        ...contract,
        verification: job.integratedChecks.map((c) => ({
          argv: c.argv,
          timeoutSeconds: Math.ceil(c.timeoutMs / 1000),
        })),
      },
    }
    : undefined;
  const plan: LandingPlan = {
    repo: job.cwd,
    onto,
    picks,
    ...(final ? { final } : {}),
    furnish: await ctx.store.load(last),
    treeLabel: job.jobId,
  };
  return plan;
}

/** What each check found, where the parent looks: a builder's in its run, the job's in its integration dir. */
async function keepChecks(ctx: SpotContext, jobId: string, steps: CheckedStep[]) {
  for (const s of steps) {
    const record = { ...s.checks, at: ctx.now(), commit: s.commit, where: "scratch worktree" };
    if (s.label === FINAL) {
      await Deno.mkdir(journalDir(ctx.paths, jobId), { recursive: true, mode: 0o700 });
      await writeJsonAtomic(join(journalDir(ctx.paths, jobId), "checks.json"), record);
    } else await ctx.store.writeJson(s.runId, "post-integration-verification.json", record);
  }
}

/** The landing recorded: the job's integration, each builder's run ended integrated. */
async function record(ctx: SpotContext, jobId: string, integration: JobIntegration) {
  const landed = integration.commits ?? integration.builders ?? [];
  for (const b of landed) {
    const held = await ctx.store.lock(b.runId);
    try {
      const run = await ctx.store.load(b.runId);
      if (TERMINAL.has(run.status)) continue;
      const commit = "commit" in b ? String(b.commit) : null;
      await moveRun(
        ctx,
        run,
        "integrated",
        commit
          ? `integrated as ${commit.slice(0, 12)} by job ${jobId}`
          : `applied to the checkout by job ${jobId}`,
        commit ? { integratedCommit: commit } : {},
      );
    } finally {
      held.release();
    }
  }
  await updateJob(ctx.paths, jobId, (_, s) => ({
    state: { ...s, updatedAt: integration.at, integration, integrationFailure: undefined },
  }));
  await appendEvent(ctx.paths, jobId, { at: integration.at, type: "job", state: "integrated" });
  return { jobId, ...integration };
}

/** A refusal, kept on the job for `job status` and the dashboard, then thrown. */
async function recordFailure(ctx: SpotContext, jobId: string, error: SpotError): Promise<never> {
  const at = ctx.now();
  const task = typeof error.details.task === "string" ? error.details.task : undefined;
  const integrationFailure = { at, ...(task ? { task } : {}), code: error.code, reason: error.message };
  await updateJob(ctx.paths, jobId, (_, s) => ({ state: { ...s, updatedAt: at, integrationFailure } }));
  await appendEvent(ctx.paths, jobId, {
    at,
    type: "job",
    state: "integration-failed",
    reason: `${error.code}: ${error.message}`.slice(0, 500),
  });
  throw error;
}

async function land(ctx: SpotContext, jobId: string, declare: (ms: number) => Promise<void>) {
  const { job, state } = await loadJob(ctx.paths, jobId);
  const done = standing(state);
  if (done) return { jobId, ...done };
  if (job.config.integration === "commit") {
    const finished = await finishedLanding(ctx.paths, jobId, job.cwd);
    if (finished) return await record(ctx, jobId, finished);
  }
  const builders = afterOrder(job.tasks).filter((t) => t.role === "builder");
  const base = await baseOf(ctx, state, state.tasks[builders[0].id].runId!);
  const mode = job.config.integration;
  const runs = builders.map((b) => ({ task: b.id, runId: state.tasks[b.id].runId! }));
  // What an earlier, part-way landing already put on the branch is kept, and the rest lands on top of it.
  const prior = mode === "commit" ? await priorLanding(ctx, job.cwd, base.head, runs) : null;
  if (!prior) await requireSource(job, base);
  await approveBuilders(ctx, job, state, builders);
  const onto = prior?.onto ?? (mode === "commit" ? base.head : base.commit);
  const plan = await planOf(ctx, job, state, builders.slice(prior?.landed.length ?? 0), onto);
  await declare(Date.now() + landingBudgetMs(plan));
  ctx.progress?.(`job integrate ${jobId}: landing ${plan.picks.length} builder(s) in a scratch tree`);
  const outcome = await buildLanding(ctx, plan);
  await keepChecks(ctx, jobId, outcome.steps);
  if (!outcome.ok) {
    const who = outcome.label === FINAL ? "its integratedChecks" : `builder "${outcome.label}"`;
    throw new SpotError(
      outcome.stage === "pick" ? "INTEGRATION_BLOCKED" : "POST_INTEGRATE_VERIFY_FAILED",
      `Cannot integrate job "${jobId}": ${who}: ${outcome.reason}; nothing landed`,
      {
        details: { jobId, ...(outcome.label === FINAL ? {} : { task: outcome.label }), stage: outcome.stage },
      },
    );
  }
  const commits = [
    ...(prior?.landed ?? []),
    ...outcome.commits.map((c) => ({ task: c.label, runId: c.runId, commit: c.commit })),
  ];
  const at = ctx.now();
  const integratedChecks = plan.final ? "passed" as const : "none" as const;
  if (mode === "commit") {
    const integration: JobIntegration = {
      mode: "commit",
      at,
      onto: prior ? base.head : onto,
      commits,
      integratedChecks,
    };
    await landCommits(ctx.paths, jobId, { cwd: job.cwd, onto, tip: outcome.tip, integration });
    return await record(ctx, jobId, integration);
  }
  const files = await applyLanding(ctx, { jobId, cwd: job.cwd, base: onto, tip: outcome.tip, commits });
  const builderRuns = commits.map(({ task, runId }) => ({ task, runId }));
  return await record(ctx, jobId, {
    mode: "apply",
    at,
    onto,
    files,
    builders: builderRuns,
    integratedChecks,
  });
}

export async function integrateJob(
  ctx: SpotContext,
  jobId: string,
): Promise<JobIntegration & { jobId: string }> {
  const { job, state } = await loadJob(ctx.paths, jobId);
  const done = standing(state);
  if (done) return { jobId, ...done };
  const refuse = (why: string) => {
    throw new SpotError("JOB_INVALID", `Cannot integrate job "${jobId}": ${why}`, { details: { jobId } });
  };
  if (!job.allowWrites) refuse("it does not allow writes");
  if (state.status !== "succeeded") notYet(jobId, state.status);
  if (!job.tasks.some((t) => t.role === "builder")) refuse("it has no builder");
  try {
    return await withLanding(job.cwd, {
      what: `job ${jobId}`,
      onWait: (h) => ctx.progress?.(`job integrate ${jobId}: waiting for ${h?.what ?? "another landing"}`),
    }, (hold) => land(ctx, jobId, hold.declare));
  } catch (error) {
    if (isSpotError(error) && error.code !== "LANDING_BUSY") return await recordFailure(ctx, jobId, error);
    throw error;
  }
}
