/**
 * `spot gc [--older-than AGE] [--confirm]`: over every run (plain, an agent's, a job task's), the ended runs
 * untouched for AGE (default 7d) lose their worktree and branch, their changes saved to the run's `diff.patch`
 * first; the run directories stay. What killed processes left is reclaimed too: leases whose owner is gone
 * (pristine trees and their entries in the user's repository, socket directories, step processes),
 * temporary indexes, a pristine tree no lease names, a dependency setup that never finished. Without
 * `--confirm` it only says what it would do; every run it keeps is listed with the reason.
 */
import { releaseWorktree } from "../lifecycle/release.ts";
import { coordinatorAlive } from "../graphs/store.ts";
import type { RunState } from "../schemas/run_state.ts";
import { TERMINAL } from "../schemas/constants.ts";
import type { SpotContext } from "../store/context.ts";
import { readLeases } from "../store/ledger.ts";
import { probeRunLock } from "../store/lock.ts";
import { stampAlive } from "../base/proc_table.ts";
import { reportRun } from "../verbs/report.ts";
import { branchExists } from "../git/repo.ts";
import { dropKeptBranch } from "./kept_branch.ts";
import { decideGc, DEFAULT_OLDER_THAN, parseAge } from "./gc_plan.ts";
import { type Leftover, strays } from "./strays.ts";

export interface GcOptions {
  confirm?: boolean;
  /** `30m`, `12h`, `7d` (default), or a number of days. */
  olderThan?: string;
}

export interface Collected {
  runId: string;
  status: string;
  owner?: RunState["owner"];
  worktree: string;
  branch: string;
  /** Cleaned before (`spot cleanup` kept its branch): only the branch is left to remove. */
  branchOnly?: true;
  /** Where its changes were saved (with --confirm; null when the worktree held none or was gone). */
  diffFile?: string | null;
}

export interface Retained {
  runId: string;
  status: string;
  reason: string;
  nextCommand?: string;
}

const message = (error: unknown) => String((error as Error)?.message ?? error).split("\n")[0].slice(0, 300);

async function jobAlive(ctx: SpotContext, state: RunState): Promise<boolean> {
  if (state.owner?.kind !== "job") return false;
  return await coordinatorAlive(ctx.paths, state.owner.jobId).catch(() => false);
}

/** What a dead owner left in the run's ledger, as a preview (nothing removed). */
async function deadLeases(ctx: SpotContext, runId: string): Promise<Leftover[]> {
  const out: Leftover[] = [];
  for (const { lease } of await readLeases(ctx.store.dir(runId)).catch(() => [])) {
    if (stampAlive(lease.owner)) continue;
    out.push({
      runId,
      kind: lease.kind,
      what: lease.what,
      ...(lease.path ? { path: lease.path } : {}),
      ...(lease.repo ? { repo: lease.repo } : {}),
      ...(lease.processes ? { pids: lease.processes.map((p) => p.pid) } : {}),
    });
  }
  return out;
}

/** Collects one run under its lock: its leftovers reclaimed, its report written, its worktree released. */
async function collect(
  ctx: SpotContext,
  state: RunState,
): Promise<{ diffFile: string | null; reclaimed: Leftover[] }> {
  // `spot cleanup` asks an integrated run for its report first; gc writes it (under its own lock), as
  // `spot job gc` does.
  if (
    state.status === "integrated" &&
    !(await Deno.stat(ctx.store.file(state.runId, "report.md")).catch(() => null))
  ) {
    await reportRun(ctx, state.runId);
  }
  const lock = await ctx.store.lock(state.runId);
  try {
    const now = await ctx.store.load(state.runId);
    // Judged a moment ago without the lock: a run recovered or cleaned since is not this gc's any more.
    if (!TERMINAL.has(now.status) || now.cleanedAt !== state.cleanedAt) {
      throw new Error(`it is ${now.status} now`);
    }
    if (now.cleanedAt) {
      const diffFile = await dropKeptBranch(ctx, now);
      await ctx.store.save({ ...now, cleanedAt: ctx.now() });
      await ctx.store.event(now.runId, {
        type: "note",
        message: "Collected by spot gc: the kept branch removed",
      });
      return { diffFile, reclaimed: lock.reclaimed.map((r) => ({ ...r, runId: now.runId })) };
    }
    const released = await releaseWorktree(ctx, now, { deleteBranch: true });
    await ctx.store.save({ ...now, cleanedAt: ctx.now() });
    await ctx.store.event(now.runId, {
      type: "note",
      message: "Collected by spot gc: worktree and branch removed",
    });
    return {
      diffFile: released.diffFile,
      reclaimed: lock.reclaimed.map((r) => ({ ...r, runId: now.runId })),
    };
  } finally {
    lock.release();
  }
}

export async function gcRuns(ctx: SpotContext, options: GcOptions = {}) {
  const confirm = options.confirm === true;
  const olderThan = options.olderThan ?? DEFAULT_OLDER_THAN;
  const olderThanMs = parseAge(olderThan);
  const now = Date.parse(ctx.now());
  const collected: Collected[] = [];
  const retained: Retained[] = [];
  const reclaimed: Leftover[] = [];
  let alreadyClean = 0;
  for (const state of await ctx.store.all()) {
    const probe = state.origin
      ? null
      : await probeRunLock(ctx.store.file(state.runId, ".lock")).catch(() => null);
    const locked = !state.origin && probe === null;
    probe?.release();
    const branchLeft = !!state.cleanedAt && !state.origin &&
      await branchExists(state.sourceRoot, state.workerBranch).catch(() => false);
    const decision = decideGc({
      ...state,
      locked,
      branchLeft,
      jobCoordinatorAlive: await jobAlive(ctx, state),
    }, {
      now,
      olderThanMs,
      olderThan,
    });
    if (decision.kind === "retain") {
      retained.push({
        runId: state.runId,
        status: state.status,
        reason: decision.reason,
        ...nextOf(decision),
      });
    }
    if (decision.kind === "clean") alreadyClean++;
    if (decision.kind !== "collect") {
      // An idle run still gets back what a killed step of it left, whatever else happens to it.
      if (!locked && !state.origin) {
        reclaimed.push(
          ...(confirm ? await reclaimIdle(ctx, state.runId) : await deadLeases(ctx, state.runId)),
        );
      }
      continue;
    }
    const entry = {
      runId: state.runId,
      status: state.status,
      ...(state.owner ? { owner: state.owner } : {}),
    };
    const where = {
      worktree: state.worktreePath,
      branch: state.workerBranch,
      ...(branchLeft ? { branchOnly: true as const } : {}),
    };
    if (!confirm) {
      collected.push({ ...entry, ...where });
      reclaimed.push(...await deadLeases(ctx, state.runId));
      continue;
    }
    try {
      const done = await collect(ctx, state);
      collected.push({ ...entry, ...where, diffFile: done.diffFile });
      reclaimed.push(...done.reclaimed);
    } catch (error) {
      retained.push({
        runId: state.runId,
        status: state.status,
        reason: `it could not be collected: ${message(error)}`,
      });
    }
  }
  const stray = await strays(ctx, { confirm });
  const next = !confirm && (collected.length || reclaimed.length || stray.length)
    ? { nextCommand: `spot gc --older-than ${olderThan} --confirm` }
    : {};
  return {
    confirm,
    olderThan,
    // A preview removes nothing: what it would collect is `wouldCollect`, and `collected` stays empty.
    ...(confirm ? { collected } : { wouldCollect: collected, collected: [] }),
    retained,
    reclaimed: [...reclaimed, ...stray],
    alreadyClean,
    ...next,
  };
}

const nextOf = (d: { nextCommand?: string }) => d.nextCommand ? { nextCommand: d.nextCommand } : {};

/** Takes an idle run's lock for a moment: taking it reclaims what a killed process left (store/run_store.ts). */
async function reclaimIdle(ctx: SpotContext, runId: string): Promise<Leftover[]> {
  try {
    const lock = await ctx.store.lock(runId);
    lock.release();
    return lock.reclaimed.map((r) => ({ ...r, runId }));
  } catch {
    return [];
  }
}
