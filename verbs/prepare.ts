/**
 * `prepare`: check the contract, choose the worker, admit the run under the
 * concurrency cap, and build its isolated worktree. A refused contract
 * writes nothing.
 */
import { isAbsolute, resolve } from "../base/path.ts";
import { isSpotError, SpotError } from "../errors.ts";
import { unreachableMessage, workerNetwork } from "../isolation/worker_network.ts";
import { withStepEnforcement } from "../isolation/enforcement.ts";
import type { DependencyRecord } from "../schemas/dependency_record.ts";
import { provideDependencies } from "../workspace/provide.ts";
import { resolveContract } from "../config/contract_resolve.ts";
import { recordEscapeBaseline } from "../gates/escape_check.ts";
import { recordLocks } from "../gates/lock_snapshot.ts";
import { requireCheckPrograms } from "../gates/check_programs.ts";
import { refuseEscapingLinks } from "../gates/source_links.ts";
import {
  dirtySourceWarning,
  inputFilesIn,
  rememberedInputFiles,
  rememberInputs,
} from "../gates/input_files.ts";
import { sourceFingerprint } from "../git/fingerprint.ts";
import { userIdentity } from "../git/repo.ts";
import { decideSandbox } from "../isolation/run_sandbox.ts";
import { readyHere } from "../doctor/profile_ready.ts";
import { admit } from "../lifecycle/admit.ts";
import { moveRun } from "../lifecycle/move.ts";
import { newRunState } from "../lifecycle/new_run.ts";
import { materializeWorktree } from "../lifecycle/worktree.ts";
import { validateEpisodeFile } from "../replay/validate.ts";
import { routeForPrepare, type RouteOptions } from "../routing/route.ts";
import type { RunOwner, RunState } from "../schemas/run_state.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import type { SpotContext } from "../store/context.ts";
import { lazy } from "../base/lazy.ts";

export interface PrepareOptions extends RouteOptions {
  taskFile: string;
  profile?: string;
  model?: string;
  usageStart?: string;
  /** `--sandbox`: auto, bwrap or none; overrides the config. */
  sandbox?: string;
  /** The run id when the contract has none (a named agent reserves it before its driver prepares). */
  runId?: string;
  /** A job's base: the worktree starts at this commit (HEAD, or a snapshot on top of it) and takes no snapshot. */
  startCommit?: string;
  /** With `startCommit`: the worktree's files start at this descendant of it; diffs still count from it. */
  checkoutCommit?: string;
  /** Names and values spot gives the worker and the checks (a job task's ports and compose project). */
  workspaceEnv?: Record<string, string>;
  /** Who drives the run (a named agent, a job): named in the run's state and in CONCURRENCY_LIMIT. */
  owner?: RunOwner;
}

/** What `prepare` made: a run with its worktree and chosen worker. */
export interface PrepareResult {
  /** The run. */
  runId: string;
  /** The run's status afterwards (`prepared`, `running`, `reviewing`, `approved`, `integrated`, `blocked`, ...). */
  status: string;
  /** The source checkout had uncommitted changes (the worker does not see them). */
  sourceDirty: boolean;
  /** The worker's isolated git worktree. */
  worktreePath: string;
  /** The branch the worktree is on. */
  workerBranch: string;
  /** The commit of the dirty source the run started from, when the checkout was dirty. */
  snapshotCommit: string | null;
  /** The profile chosen (by routing, the caller or `--profile`). */
  profile: string;
  /** The worker CLI that profile runs. */
  adapter: string;
  /** The model the worker will use. */
  model: string;
  /** The parent agent that prepared the run (`PARENT_AGENT`), or `cli`. */
  caller: string;
  /** How the worker and the checks get the project's dependencies. */
  dependencies?: DependencyRecord;
  /** What the parent should know before going on: a dirty source means integrate will refuse, and why. */
  warnings?: string[];
}

export async function prepare(ctx: SpotContext, options: PrepareOptions): Promise<PrepareResult> {
  const task = await resolveContract(ctx, options.taskFile, options.runId);
  // A check that cannot start would fail only at verify, after the worker's turn: refuse it now.
  requireCheckPrograms(task, { cwd: task.repositoryRoot, env: ctx.env });
  // A link out of the repository in the tree the worker starts from: refused before any branch or worktree,
  // looked for while the sandbox and the route are decided (their refusals, when both fail, come first).
  const linksChecked = refuseEscapingLinks(task.repositoryRoot, {
    base: task.baseRevision,
    startCommit: options.startCommit,
  });
  linksChecked.catch(() => {}); // awaited below, with the source's fingerprint
  // Fail closed before anything is written: no sandbox, no run (unless the user opted out).
  const sandbox = await decideSandbox(ctx, { flag: options.sandbox });
  // Routing takes only profiles that can run here; a named profile is taken as named.
  const ready = readyHere(ctx, sandbox.details.backend);
  const { choice, settings, warnings, caller } = await routeForPrepare(ctx, task, { ...options, ready });
  const model = choice.profile.adapter === "replay" ? resolve(ctx.cwd, choice.model) : choice.model;
  if (choice.profile.adapter === "replay") await validateEpisodeFile(model);
  // A worker that cannot reach its provider from the sandbox would only fail later: refuse now, with the fix.
  if (sandbox.details.backend !== "none") {
    const network = workerNetwork(ctx, choice.name, choice.profile);
    if (network.mode === "unreachable") {
      throw new SpotError(
        "PROVIDER_UNREACHABLE",
        unreachableMessage(choice.name, choice.profile.provider, network),
        {
          details: { profile: choice.name, tried: network.tried, reason: network.reason, fix: network.fix },
        },
      );
    }
  }
  // The contract, an episode or a usage snapshot kept in the checkout is spot's input, not the user's work.
  const given = [
    options.taskFile,
    options.usageStart,
    choice.profile.adapter === "replay" ? model : undefined,
  ];
  const handed = await inputFilesIn(task.repositoryRoot, ctx.cwd, given.filter((f) => f !== undefined));
  const inputFiles = [...handed, ...await rememberedInputFiles(ctx, task.repositoryRoot, handed)];
  const [, fingerprint, identity] = await Promise.all([
    linksChecked,
    sourceFingerprint(task.repositoryRoot, { exclude: inputFiles.map((f) => f.path) }),
    userIdentity(task.repositoryRoot),
  ]);
  const runId = task.runId;
  const fresh = newRunState({
    task,
    choice,
    model,
    caller,
    sandbox,
    fingerprint,
    identity,
    worktreesDir: ctx.paths.worktreesDir,
    at: ctx.now(),
  });
  const state: RunState = {
    ...fresh,
    ...(inputFiles.length > 0 ? { inputFiles } : {}),
    ...(options.startCommit ? { startCommit: options.startCommit } : {}),
    ...(options.startCommit && options.checkoutCommit ? { checkoutCommit: options.checkoutCommit } : {}),
    ...(options.workspaceEnv ? { workspaceEnv: options.workspaceEnv } : {}),
    ...(options.owner ? { owner: options.owner } : {}),
  };
  const usageStartFile = options.usageStart && !isAbsolute(options.usageStart)
    ? resolve(ctx.cwd, options.usageStart)
    : options.usageStart;
  // The parent's usage snapshot (and zod, which checks it) only when the parent gave one.
  const snapshots = usageStartFile
    ? await lazy<typeof import("../usage/parent/snapshot_file.ts")>(
      "../usage/parent/snapshot_file.ts",
      import.meta.url,
    )
    : null;
  const usageStart = usageStartFile && snapshots ? await snapshots.readSnapshotFile(usageStartFile) : null;
  // Admission hands back the run's lock, held from the moment the run exists until its worktree is built.
  const lock = await admit(ctx, state, task);
  try {
    await ctx.store.event(runId, {
      type: "transition",
      from: null,
      to: "prepared",
      reason: state.transitions[0].reason,
    });
    for (const message of warnings) {
      await ctx.store.event(runId, { type: "worker_warning", phase: "run", message });
    }
    await ctx.store.writeJson(runId, "routing.json", {
      ...choice.routing,
      profile: choice.name,
      caller,
      worker: settings,
      usageStart: usageStartFile ?? null,
    });
    if (usageStart && snapshots) await ctx.store.writeJson(runId, snapshots.START_SNAPSHOT_FILE, usageStart);
    return await buildWorktree(ctx, state, task);
  } finally {
    lock.release();
  }
}

async function buildWorktree(
  ctx: SpotContext,
  state: RunState,
  task: ResolvedContract,
): Promise<PrepareResult> {
  let next = state;
  try {
    next = await materializeWorktree(ctx, state);
    // Baselines for the lock and escape gates, taken before any worker runs; their hashes go in state.json.
    const [locked, escape] = await Promise.all([
      recordLocks(ctx, task, next.sourceRoot, next.workerBaseRevision),
      recordEscapeBaseline(ctx, next),
    ]);
    const baselines = { "locked.json": locked, "escape.json": escape };
    next = await ctx.store.save({ ...next, baselines, updatedAt: ctx.now() });
    // The project's dependencies, for the worker and the checks: reused, set up, or none, with the reason.
    const deps = await provideDependencies(ctx, next);
    next = await ctx.store.save({
      ...next,
      dependencies: deps.record,
      sandboxDetails: withStepEnforcement(next.sandboxDetails, "setup", deps.enforcement),
      updatedAt: ctx.now(),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A setup that edited the project is a gate, not a crash: the run is blocked and says why.
    const blocked = isSpotError(error, "SETUP_CHANGED_TREE");
    await moveRun(ctx, next, blocked ? "blocked" : "failed", "prepare failed", {
      failure: { code: isSpotError(error) ? error.code : "PREPARE_FAILED", message },
      ...(blocked ? { blockedReason: "SETUP_CHANGED_TREE" } : {}),
    });
    throw error;
  }
  await rememberInputs(ctx, next.sourceRoot, (next.inputFiles ?? []).filter((f) => !f.remembered));
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
    dependencies: next.dependencies,
    ...(next.sourceDirty && !next.startCommit
      ? { warnings: [await dirtySourceWarning(next.sourceRoot, next)] }
      : {}),
  };
}
