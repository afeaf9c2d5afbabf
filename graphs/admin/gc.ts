/**
 * `spot job gc [--confirm] [--older-than-days N]`: over every job in `<state>/jobs/`, a settled job nobody has
 * touched for N days (default 7) is collected: its task runs cleaned as `spot job cleanup` cleans them (the
 * run directories stay, like every cleaned run's) and its job directory removed. A preview without --confirm.
 * A job is collected whole or kept: one run that must stay keeps the job, with the reasons.
 */
import { isSpotError } from "../../errors.ts";
import type { HeldLock } from "../../store/lock.ts";
import type { SpotContext } from "../../store/context.ts";
import { readJournal } from "../integration/journal.ts";
import { dropJobRefs } from "../launch/verified.ts";
import { coordinatorAlive, jobDir, jobsDir, loadJob } from "../store.ts";
import {
  applyRuns,
  planRuns,
  previewRuns,
  type Removed,
  type Retained,
  wouldBe,
  type WouldRemove,
} from "./cleanup.ts";
import { DEFAULT_OLDER_THAN_DAYS, gcHold } from "./gc_plan.ts";
import { holdIdleJob } from "./unlock.ts";

export interface Collected {
  jobId: string;
  status: string;
  updatedAt: string;
  /** What was removed; in a preview, empty, and what would be is `wouldRemove`. */
  removed: Removed[];
  wouldRemove?: WouldRemove[];
}

export interface KeptJob {
  jobId: string;
  reason: string;
  runs?: Retained[];
  /** Worktrees removed before a run turned out to need keeping (--confirm only). */
  removed?: Removed[];
}

const message = (error: unknown) =>
  (isSpotError(error) ? `${error.code}: ${error.message}` : String(error)).split("\n")[0].slice(0, 300);

async function jobIds(ctx: SpotContext): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const entry of Deno.readDir(jobsDir(ctx.paths))) out.push(entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return out.sort();
}

/**
 * The job's coordinator lock, held while it is judged and removed so no coordinator can take it meanwhile;
 * the reason when a coordinator has it; null when the job cannot be read (oneJob says why).
 */
async function holdFor(ctx: SpotContext, jobId: string): Promise<HeldLock | string | null> {
  try {
    return await holdIdleJob(ctx.paths, jobId, "collect");
  } catch (error) {
    if (!isSpotError(error, "JOB_RUNNING")) return null;
    const pid = error.details.pid;
    return `its coordinator is running${pid ? ` (pid ${pid})` : ""}`;
  }
}

/** One job: collected (or what collecting would do), or kept with the reason. */
async function oneJob(
  ctx: SpotContext,
  jobId: string,
  options: { confirm: boolean; olderThanDays: number },
): Promise<Collected | KeptJob> {
  let loaded;
  try {
    jobDir(ctx.paths, jobId);
    loaded = await loadJob(ctx.paths, jobId);
  } catch (error) {
    return { jobId, reason: `it cannot be read: ${message(error)}` };
  }
  const { job, state } = loaded;
  const journal = await readJournal(ctx.paths, jobId).catch(() => null);
  const hold = gcHold({
    status: state.status,
    updatedAt: state.updatedAt,
    // Under --confirm this process holds the coordinator lock itself, so no coordinator is alive.
    coordinatorAlive: !options.confirm && await coordinatorAlive(ctx.paths, jobId),
    coordinatorPid: state.coordinator?.pid,
    ...(journal ? { journal: { state: journal.state, at: journal.at } } : {}),
  }, { now: Date.parse(ctx.now()), olderThanDays: options.olderThanDays });
  if (hold) return { jobId, reason: hold };
  const plan = await planRuns(ctx, job, state);
  const preview = previewRuns(plan);
  const kept = (runs: Retained[], removed?: Removed[]): KeptJob => ({
    jobId,
    reason: `${runs.length} of its task runs must stay`,
    runs,
    ...(removed?.length ? { removed } : {}),
  });
  if (preview.retained.length) return kept(preview.retained);
  const collected = { jobId, status: state.status, updatedAt: state.updatedAt };
  if (!options.confirm) return { ...collected, wouldRemove: preview.removed.map(wouldBe), removed: [] };
  const done = await applyRuns(ctx, jobId, plan);
  if (done.retained.length) return kept(done.retained, done.removed);
  // The private refs that kept the job's base and its builders' verified commits go with the job.
  await dropJobRefs(job.cwd, jobId);
  await Deno.remove(jobDir(ctx.paths, jobId), { recursive: true });
  return { ...collected, removed: done.removed };
}

export async function gcJobs(
  ctx: SpotContext,
  options: { confirm?: boolean; olderThanDays?: number } = {},
) {
  const confirm = options.confirm === true;
  const olderThanDays = options.olderThanDays ?? DEFAULT_OLDER_THAN_DAYS;
  const collected: Collected[] = [];
  const retained: KeptJob[] = [];
  for (const jobId of await jobIds(ctx)) {
    const held = confirm ? await holdFor(ctx, jobId) : null;
    if (typeof held === "string") {
      retained.push({ jobId, reason: held });
      continue;
    }
    try {
      const out = await oneJob(ctx, jobId, { confirm, olderThanDays });
      if ("reason" in out) retained.push(out);
      else collected.push(out);
    } catch (error) {
      retained.push({ jobId, reason: `it could not be collected: ${message(error)}` });
    } finally {
      held?.release();
    }
  }
  const next = !confirm && collected.length
    ? { nextCommand: `spot job gc --older-than-days ${olderThanDays} --confirm` }
    : {};
  // A preview collects nothing: what it would collect is `wouldCollect`, and `collected` stays empty.
  const found = confirm ? { collected } : { wouldCollect: collected, collected: [] };
  return { confirm, olderThanDays, ...found, retained, ...next };
}
