/**
 * `prepare`: check the contract, choose the worker, admit the run under the
 * concurrency cap, and build its isolated worktree. A refused contract
 * writes nothing.
 */
import { isAbsolute, join, resolve } from "node:path";
import { SpotError } from "../errors.ts";
import type { RunState } from "../schemas/run_state.ts";
import { TERMINAL } from "../schemas/run_state.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import { sourceFingerprint } from "../git/fingerprint.ts";
import { branchExists, headCommit, toplevel, userIdentity } from "../git/repo.ts";
import { addWorktree, snapshotDirtySource } from "../git/worktree.ts";
import { validateEpisodeFile } from "../replay/validate.ts";
import { readSnapshotFile, START_SNAPSHOT_FILE } from "../usage/parent/snapshot_file.ts";
import type { SpotContext } from "../store/context.ts";
import { readContract } from "../config/contract_load.ts";
import { writeJsonAtomic } from "../store/files.ts";
import { lockBlocking, tryLockRun, withLock } from "../store/lock.ts";
import { routeForPrepare, type RouteOptions } from "../routing/route.ts";
import { recordLocks } from "../gates/lock_snapshot.ts";
import { recordEscapeBaseline } from "../gates/escape_check.ts";
import { decideSandbox } from "../isolation/run_sandbox.ts";

export interface PrepareOptions extends RouteOptions {
  taskFile: string;
  profile?: string;
  model?: string;
  usageStart?: string;
  /** `--sandbox`: auto, bwrap or none; overrides the config. */
  sandbox?: string;
}

export interface PrepareResult {
  runId: string;
  status: string;
  sourceDirty: boolean;
  worktreePath: string;
  workerBranch: string;
  snapshotCommit: string | null;
  profile: string;
  adapter: string;
  model: string;
  caller: string;
}

function generateRunId(now: string): string {
  const stamp = now.replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-");
  return `run-${stamp}-${crypto.randomUUID().slice(0, 6)}`;
}

async function resolveContract(ctx: SpotContext, options: PrepareOptions): Promise<ResolvedContract> {
  const task = await readContract(resolve(ctx.cwd, options.taskFile), ctx.config);
  const root = await toplevel(task.repositoryRoot ?? ctx.cwd);
  if (task.repositoryRoot && resolve(task.repositoryRoot) !== root) {
    throw new SpotError(
      "CONTRACT_INVALID",
      `Cannot use repositoryRoot "${task.repositoryRoot}": the git toplevel there is "${root}"`,
    );
  }
  const head = await headCommit(root);
  if (task.baseRevision && task.baseRevision !== head) {
    throw new SpotError(
      "BASE_REVISION_MISMATCH",
      `Cannot prepare: base revision ${task.baseRevision.slice(0, 12)} does not match HEAD ${
        head.slice(0, 12)
      }`,
      { details: { baseRevision: task.baseRevision, head } },
    );
  }
  return { ...task, runId: task.runId ?? generateRunId(ctx.now()), repositoryRoot: root, baseRevision: head };
}

/** Counts and reserves under one global lock, so racing prepares cannot overshoot the cap. */
async function admit(ctx: SpotContext, state: RunState, task: ResolvedContract): Promise<void> {
  await withLock(lockBlocking(ctx.paths.admissionLock), async () => {
    const active = (await ctx.store.all()).filter((s) => !TERMINAL.has(s.status));
    const max = ctx.config.maxConcurrentRuns;
    if (active.length >= max) {
      throw new SpotError(
        "CONCURRENCY_LIMIT",
        `Cannot admit run "${state.runId}": ${active.length} of ${max} run slots are busy`,
        {
          details: { active: active.map((s) => s.runId), maxConcurrentRuns: max },
        },
      );
    }
    if (await branchExists(task.repositoryRoot, state.workerBranch)) {
      throw new SpotError(
        "RUN_EXISTS",
        `Cannot prepare run "${state.runId}": branch ${state.workerBranch} already exists`,
      );
    }
    try {
      await Deno.mkdir(ctx.store.dir(state.runId), { mode: 0o700 });
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) {
        throw new SpotError(
          "RUN_EXISTS",
          `Cannot prepare run "${state.runId}": a run with this id already exists`,
        );
      }
      throw error;
    }
    await writeJsonAtomic(ctx.store.file(state.runId, "task.json"), task);
    await ctx.store.save(state);
  });
}

export async function prepare(ctx: SpotContext, options: PrepareOptions): Promise<PrepareResult> {
  const task = await resolveContract(ctx, options);
  const { choice, settings, warnings, caller } = await routeForPrepare(ctx, task, options);
  const model = choice.profile.adapter === "replay" ? resolve(ctx.cwd, choice.model) : choice.model;
  if (choice.profile.adapter === "replay") await validateEpisodeFile(model);
  // Fail closed before anything is written: no sandbox, no run (unless the user opted out).
  const sandbox = await decideSandbox(ctx, { flag: options.sandbox, forwarder: !!choice.profile.baseUrl });
  const [fingerprint, identity] = await Promise.all([
    sourceFingerprint(task.repositoryRoot),
    userIdentity(task.repositoryRoot),
  ]);
  const at = ctx.now();
  const runId = task.runId;
  const state: RunState = {
    schemaVersion: 1,
    runId,
    status: "prepared",
    createdAt: at,
    updatedAt: at,
    caller,
    sourceRoot: task.repositoryRoot,
    sourceHead: fingerprint.head,
    sourceBranch: fingerprint.branch,
    sourceFingerprint: fingerprint,
    sourceDirty: fingerprint.dirty,
    worktreePath: join(ctx.paths.worktreesDir, runId),
    workerBranch: `pi-worker/${runId}`,
    baseRevision: task.baseRevision,
    workerBaseRevision: task.baseRevision,
    snapshotCommit: null,
    worktreeReady: false,
    profile: choice.name,
    adapter: choice.profile.adapter,
    provider: choice.profile.provider,
    model,
    sandbox: sandbox.level,
    sandboxDetails: sandbox.details,
    identity,
    revisionRound: 0,
    fallbackUsed: false,
    workerUsage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    workerCostUsd: 0,
    workerDurationMs: 0,
    workerAttempts: 0,
    transitions: [{
      from: null,
      to: "prepared",
      at,
      reason: `admitted (profile ${choice.name} via ${choice.routing.profileSource})`,
    }],
    failure: null,
    interruption: null,
    lastVerificationPassed: null,
    diffSha256: null,
    diffBytes: null,
    selfReviewSkipped: null,
    selfReviewSkipReason: null,
    implementationCommit: null,
    integratedCommit: null,
    blockedReason: null,
    recovery: null,
    lastReportAt: null,
    cleanedAt: null,
  };
  const usageStartFile = options.usageStart && !isAbsolute(options.usageStart)
    ? resolve(ctx.cwd, options.usageStart)
    : options.usageStart;
  const usageStart = usageStartFile ? await readSnapshotFile(usageStartFile) : null;
  await admit(ctx, state, task);
  await ctx.store.event(runId, {
    type: "transition",
    from: null,
    to: "prepared",
    reason: state.transitions[0].reason,
  });
  for (const message of warnings) {
    await ctx.store.event(runId, { type: "worker_warning", phase: "run", message });
  }
  const lock = await tryLockRun(ctx.store.file(runId, ".lock"), runId);
  try {
    await ctx.store.writeJson(runId, "routing.json", {
      ...choice.routing,
      profile: choice.name,
      caller,
      worker: settings,
      usageStart: usageStartFile ?? null,
    });
    if (usageStart) await ctx.store.writeJson(runId, START_SNAPSHOT_FILE, usageStart);
    return await buildWorktree(ctx, state, task);
  } finally {
    lock.release();
  }
}

/** Creates the run's worktree (and snapshot of a dirty source) and marks it ready. */
export async function materializeWorktree(ctx: SpotContext, state: RunState): Promise<RunState> {
  let next = state;
  await addWorktree(state.sourceRoot, {
    path: state.worktreePath,
    branch: state.workerBranch,
    base: state.baseRevision,
  });
  if (state.sourceDirty) {
    const snap = await snapshotDirtySource(state.sourceRoot, {
      worktree: state.worktreePath,
      runId: state.runId,
      identity: state.identity,
      indexFile: ctx.store.file(state.runId, ".snapshot.index"),
    });
    next = { ...next, ...snap };
  }
  return await ctx.store.save({ ...next, worktreeReady: true, updatedAt: ctx.now() });
}

async function buildWorktree(
  ctx: SpotContext,
  state: RunState,
  task: ResolvedContract,
): Promise<PrepareResult> {
  let next = state;
  try {
    next = await materializeWorktree(ctx, state);
    // Baselines for the lock and escape gates, taken before any worker runs.
    await recordLocks(ctx, task, next.sourceRoot, next.workerBaseRevision);
    await recordEscapeBaseline(ctx, next);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await ctx.store.move(next, "failed", "prepare failed", { failure: { code: "PREPARE_FAILED", message } });
    throw error;
  }
  return {
    runId: next.runId,
    status: next.status,
    sourceDirty: next.sourceDirty,
    worktreePath: next.worktreePath,
    workerBranch: next.workerBranch,
    snapshotCommit: next.snapshotCommit,
    profile: next.profile,
    adapter: next.adapter,
    model: next.model,
    caller: next.caller,
  };
}
