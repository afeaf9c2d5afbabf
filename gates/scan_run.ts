/** The worker's delta and its security scan, computed fresh from the worktree. */
import { join } from "../base/path.ts";
import { computeDelta, type Delta } from "../git/delta.ts";
import { describeChange, sourceFingerprint } from "../git/fingerprint.ts";
import type { RunState, SourceFingerprint } from "../schemas/run_state.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import { type ChangedFile, parseDiff } from "../verify/parse_diff.ts";
import { scanDelta, type ScanResult } from "../verify/scope_scan.ts";
import type { LockIssue } from "../verify/locked.ts";
import type { SpotContext } from "../store/context.ts";
import { checkLocks } from "./lock_snapshot.ts";
import { checkShadows } from "./runner_guard.ts";
import { worktreeOf } from "../lifecycle/worktree.ts";
import { inputPaths } from "./input_files.ts";

export interface RunScan {
  delta: Delta;
  /** Changes to locked paths, frozen manifest keys or the verification harness. */
  locks: LockIssue[];
  files: ChangedFile[];
  scan: ScanResult & { diffSha256: string };
  sourceUnchanged: boolean;
  /** The source checkout as it is now. */
  source: SourceFingerprint;
}

async function newSizes(worktree: string, files: ChangedFile[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const f of files) {
    if (f.status === "deleted") continue;
    const info = await Deno.lstat(join(worktree, f.path)).catch(() => null);
    if (info?.isFile) sizes.set(f.path, info.size);
  }
  return sizes;
}

export async function scanRun(
  ctx: SpotContext,
  state: RunState,
  task: ResolvedContract,
  options: { onTree?: (tree: string) => void } = {},
): Promise<RunScan> {
  const delta = await computeDelta(
    await worktreeOf(state),
    state.workerBaseRevision,
    ctx.store.dir(state.runId),
    options.onTree,
  );
  const files = parseDiff(delta.diff);
  const limits = ctx.config.limits;
  const scan = scanDelta(files, delta.diffBytes, {
    allowedPaths: task.allowedPaths,
    forbiddenPaths: task.forbiddenPaths,
    alwaysForbiddenPaths: ctx.config.alwaysForbiddenPaths,
    maxChangedFiles: limits.maxChangedFiles,
    maxDeletedLineRatio: limits.maxDeletedLineRatio,
    maxDiffBytes: limits.maxDiffBytes,
    maxFileBytes: limits.maxFileBytes,
  }, await newSizes(state.worktreePath, files));
  // The source's fingerprint and the lock checks read different things: they run side by side.
  const [now, lockIssues, shadowIssues] = await Promise.all([
    sourceFingerprint(state.sourceRoot, { exclude: inputPaths(state) }),
    checkLocks(ctx, state, delta.tree),
    checkShadows(ctx, state, { task, files, tree: delta.tree }),
  ]);
  const sourceUnchanged = now.digest === state.sourceFingerprint.digest;
  if (!sourceUnchanged) {
    scan.issues.push({
      code: "SOURCE_CHANGED",
      message: `The source checkout changed since prepare: ${
        describeChange(state.sourceFingerprint, now).join("; ")
      }`,
    });
    scan.passed = false;
  }
  const locks = [...lockIssues, ...shadowIssues];
  // A parent written for the original reads an issue's file as `path`: it costs nothing to say both.
  const issues = scan.issues.map((i) => i.file === undefined ? i : { ...i, path: i.file });
  return {
    delta,
    locks,
    files,
    scan: { ...scan, issues, diffSha256: delta.diffSha256 },
    sourceUnchanged,
    source: now,
  };
}
