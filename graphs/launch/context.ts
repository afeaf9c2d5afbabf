/**
 * What a task's turn is given beyond its text, decided before its run is prepared and written beside the run
 * (`task-context.json`, so a coordinator that takes over tells the worker the same):
 *
 * - where its worktree starts (graphs/launch/start.ts): the job's base plus its builders' verified work; a
 *   repair whose last attempt passed verification on that same start continues from that attempt's verified
 *   commit, while its diff still counts from the start (the new attempt's change is the whole task's);
 * - a reviewer's change under review: the combined patch from the job's base to its worktree, its stat, each
 *   reviewed builder's own patch and fingerprint; for `reviewBase`, the patch of the checkout's range and the
 *   fingerprint of that range (graphs/launch/review_base.ts), which its one verdict must echo;
 * - a repair whose last attempt did not pass verification: that attempt's diff, as a file.
 *
 * Files go in the run's `attachments/` and are the only part of the run dir the worker may read.
 */
import { join } from "../../base/path.ts";
import { computeDelta, DIFF_ARGS } from "../../git/delta.ts";
import { git } from "../../git/git.ts";
import { sha256Hex } from "../../git/hash.ts";
import { userIdentity } from "../../git/repo.ts";
import { worktreeOf } from "../../lifecycle/worktree.ts";
import type { JobTask } from "../../schemas/job/task.ts";
import type { SpotContext } from "../../store/context.ts";
import { reviewTargets } from "../result.ts";
import { jobFile, type ReviewedChange, type StoredJob, type TaskRecord } from "../store.ts";
import type { JobBase } from "./base.ts";
import { buildersBefore, composeStart, layersOf } from "./start.ts";
import { resolveReviewBase } from "./review_base.ts";

export interface StartPlan {
  /** The run's diff counts from here. */
  startCommit: string;
  /** Where its worktree's files start, when not at `startCommit` (a repair continuing its verified work). */
  checkoutCommit?: string;
  /** The range a `reviewBase` reviewer reviews. */
  range?: { from: string; to: string };
}

export interface TurnContext {
  /** Files the worker may read (absolute). */
  files: string[];
  /** Prompt lines, a section of their own. */
  lines: string[];
  reviewed?: ReviewedChange;
}

/** The stat of a diff, bounded: the patch file has the rest. */
const MAX_STAT_LINES = 60;
const CONTEXT_FILE = "task-context.json";

export interface ContextOptions {
  base: JobBase;
  records: Readonly<Record<string, TaskRecord>>;
}

/** Where the task starts; TASK_BASE_CONFLICT when its builders' changes cannot be put together. */
export async function planStart(
  ctx: SpotContext,
  job: StoredJob,
  task: JobTask,
  options: ContextOptions,
): Promise<StartPlan> {
  if (task.reviewBase) {
    const range = await resolveReviewBase(job.cwd, task.reviewBase, options.base);
    return { startCommit: range.to, range };
  }
  const layers = layersOf(buildersBefore(job.tasks, task), options.records);
  const startCommit = await composeStart(job.cwd, options.base.commit, layers, {
    scratchDir: jobFile(ctx.paths, job.jobId, "."),
    identity: () => userIdentity(job.cwd),
    taskId: task.id,
    jobId: job.jobId,
  });
  const previous = options.records[task.id]?.previous;
  // Its last attempt's verified work still sits on what it would start from now: it continues from there.
  const continues = task.role === "builder" && previous?.verifiedCommit &&
    previous.startCommit === startCommit;
  return { startCommit, ...(continues ? { checkoutCommit: previous.verifiedCommit } : {}) };
}

async function diffFiles(cwd: string, from: string, to: string, file: string): Promise<string> {
  const patch = (await git([...DIFF_ARGS, from, to, "--"], { cwd })).stdout;
  await Deno.writeTextFile(file, patch, { mode: 0o600 });
  return patch;
}

async function stat(cwd: string, from: string, to: string): Promise<string[]> {
  const out = await git([
    "diff",
    "--stat=100",
    "--no-renames",
    "--no-ext-diff",
    "--no-textconv",
    from,
    to,
    "--",
  ], { cwd });
  const lines = out.stdout.split("\n").filter(Boolean);
  return lines.length > MAX_STAT_LINES
    ? [...lines.slice(0, MAX_STAT_LINES - 1), "  ...", lines.at(-1)!]
    : lines;
}

async function reviewerContext(
  job: StoredJob,
  task: JobTask,
  dir: string,
  from: string,
  to: string,
  options: ContextOptions & { range?: StartPlan["range"] },
): Promise<TurnContext> {
  const cwd = job.cwd;
  const combined = join(dir, "changes.patch");
  const patchSha256 = await sha256Hex(await diffFiles(cwd, from, to, combined));
  const files = [combined];
  const fingerprints: Record<string, string> = {};
  const lines = ["## The change under review"];
  if (options.range) {
    fingerprints[task.id] = await sha256Hex(JSON.stringify({ from, to, patchSha256 }));
    lines.push(
      `Your worktree (read-only) is ${to}; you review the change from ${from} to it ` +
        `("${task.reviewBase}"). The patch: ${combined}`,
      ...await stat(cwd, from, to),
      "",
      `Give one verdict, with taskId "${task.id}", echoing this fingerprint exactly:`,
      `fingerprint of ${task.id}: ${fingerprints[task.id]}`,
    );
    return { files, lines, reviewed: { from, to, patchSha256, fingerprints } };
  }
  const built = buildersBefore(job.tasks, task).map((b) => b.id);
  if (!built.length) return readerContext(job, task);
  lines.push(
    `Your worktree (read-only) is the job's base with the verified work of ${built.join(", ")} applied, ` +
      `in that order. The combined patch, from the job's base to your worktree: ${combined}`,
    ...await stat(cwd, from, to),
  );
  for (const id of reviewTargets(job.tasks, task)) {
    const r = options.records[id];
    if (!r?.startCommit || !r.verifiedCommit) continue;
    const own = join(dir, `${id}.patch`);
    await diffFiles(cwd, r.startCommit, r.verifiedCommit, own);
    files.push(own);
    fingerprints[id] = r.fingerprint ?? "";
    lines.push(`- "${id}" alone: ${own}`);
  }
  return { files, lines, reviewed: { from, to, patchSha256, fingerprints } };
}

/** The last attempt's diff: its verified patch when it got that far, else what its worktree holds now. */
async function previousDiff(ctx: SpotContext, runId: string, file: string): Promise<boolean> {
  const verified = await Deno.readTextFile(ctx.store.file(runId, "diff.patch")).catch(() => null);
  if (verified !== null) {
    await Deno.writeTextFile(file, verified, { mode: 0o600 });
    return true;
  }
  const run = await ctx.store.load(runId).catch(() => null);
  if (!run?.worktreeReady || !(await Deno.stat(run.worktreePath).catch(() => null))) return false;
  const delta = await computeDelta(await worktreeOf(run), run.workerBaseRevision, ctx.store.dir(runId));
  await Deno.writeTextFile(file, delta.diff, { mode: 0o600 });
  return true;
}

async function builderContext(
  ctx: SpotContext,
  job: StoredJob,
  task: JobTask,
  dir: string,
  options: ContextOptions & { checkoutCommit?: string },
): Promise<TurnContext> {
  const lines: string[] = [];
  const files: string[] = [];
  const built = buildersBefore(job.tasks, task).map((b) => b.id);
  if (built.length) {
    lines.push(`Your worktree starts from the job's base with the verified work of ${built.join(", ")}.`);
  }
  const previous = options.records[task.id]?.previous;
  if (previous && options.checkoutCommit) {
    lines.push(
      `It holds your attempt ${previous.attempt}'s work as spot verified it: change it as the repair asks. ` +
        "Your result and spot's checks cover the whole task's change, that attempt's included.",
    );
  } else if (previous?.runId) {
    const file = join(dir, "previous-attempt.diff");
    if (await previousDiff(ctx, previous.runId, file)) {
      files.push(file);
      // A verified attempt starts afresh only because what it built on changed (a repair of a builder before it).
      const why = previous.verifiedCommit
        ? "was built on an earlier attempt of the work you build on, which a repair replaced"
        : "did not pass spot's verification";
      lines.push(
        `Your attempt ${previous.attempt} ${why}, so your worktree starts afresh; ` +
          `what it changed is in ${file} (reuse what was right in it).`,
      );
    }
  }
  return { files, lines: lines.length ? ["## Where you start", ...lines] : [] };
}

/** The turn's context: read back when the run's first coordinator wrote it, else made now (and written). */
export async function turnContext(
  ctx: SpotContext,
  job: StoredJob,
  task: JobTask,
  options: ContextOptions & { runId: string; plan?: StartPlan },
): Promise<TurnContext> {
  const saved = await ctx.store.readJson<TurnContext>(options.runId, CONTEXT_FILE);
  if (saved) return saved;
  // What the run was prepared with is on record; only a range is worked out again (a new coordinator's).
  const run = await ctx.store.load(options.runId);
  const range = options.plan?.range ??
    (task.reviewBase ? (await planStart(ctx, job, task, options)).range : undefined);
  const dir = ctx.store.file(options.runId, "attachments");
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const context = task.role === "reviewer"
    ? await reviewerContext(job, task, dir, range?.from ?? options.base.commit, run.workerBaseRevision, {
      ...options,
      range,
    })
    : task.role === "builder"
    ? await builderContext(ctx, job, task, dir, { ...options, checkoutCommit: run.checkoutCommit })
    : readerContext(job, task);
  await ctx.store.writeJson(options.runId, CONTEXT_FILE, context);
  return context;
}

/** A read-only task after builders reads their verified work in its worktree. */
function readerContext(job: StoredJob, task: JobTask): TurnContext {
  const built = buildersBefore(job.tasks, task).map((b) => b.id);
  if (!built.length) return { files: [], lines: [] };
  return {
    files: [],
    lines: ["## Your worktree", `It is the job's base with the verified work of ${built.join(", ")}.`],
  };
}
