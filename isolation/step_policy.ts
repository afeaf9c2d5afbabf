/**
 * Builds the sandbox policy for one command from the run: the checkout it
 * works in (writable), its `.git` and locked files (read-only, ancestors
 * pinned), the git dirs git needs (read-only), the tools it runs, a private
 * /tmp and HOME, and nothing of the user's HOME, spot's state or other
 * worktrees.
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { within } from "../sandbox/bwrap.ts";
import { pathDirs, realPathOrNull, safeReadRoots, systemView, toolPaths } from "../sandbox/host_paths.ts";
import {
  DEFAULT_LIMITS,
  HOME_SIZE_BYTES,
  type NetworkPolicy,
  type SandboxPolicy,
  TMP_SIZE_BYTES,
} from "../sandbox/sandbox_policy.ts";
import type { LockSnapshot } from "../verify/locked.ts";
import type { SpotContext } from "../store/context.ts";
import type { RunSandbox } from "./run_sandbox.ts";
import { denoDir } from "./step_runner.ts";

/** bwrap parses a bounded argv; beyond this many locked files the hash gate alone guards the rest. */
export const MAX_PROTECTED = 512;

/** spot's own checkout: the replay worker and test fixtures run from it. */
export const SPOT_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

export interface PolicyInput {
  /** The checkout the command works in; writable. */
  cwd: string;
  /** More writable directories (created if missing). */
  writable?: string[];
  /** More read-only paths the caller vouches for (already checked). */
  readOnly?: string[];
  /** Binaries the command starts; their installs become readable. */
  tools: string[];
  /** Show spot's own checkout read-only (the worker needs it for replay and fixtures). */
  spotRoot?: boolean;
  home: { path: string; files?: string[] };
  env: Record<string, string>;
  network: NetworkPolicy;
  /** Repo-relative locked files to keep read-only. */
  lockedFiles: string[];
  /** Paths that must stay out of reach even read-only. */
  keepOut: string[];
}

function lstat(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

/** The checkout's `.git` (file or dir) and the git directories behind it. */
export function gitLayout(dir: string): { dotGit: string | null; gitDirs: string[] } {
  const dotGit = join(dir, ".git");
  const info = lstat(dotGit);
  if (!info || info.isSymlink) return { dotGit: null, gitDirs: [] };
  if (info.isDirectory) return { dotGit, gitDirs: [] };
  const pointer = Deno.readTextFileSync(dotGit).match(/^gitdir:\s*(.+)$/m)?.[1]?.trim();
  if (!pointer) return { dotGit, gitDirs: [] };
  const gitDir = realPathOrNull(resolve(dir, pointer));
  if (!gitDir) return { dotGit, gitDirs: [] };
  let common = gitDir;
  try {
    common = realPathOrNull(resolve(gitDir, Deno.readTextFileSync(join(gitDir, "commondir")).trim())) ??
      gitDir;
  } catch {
    // No commondir file: the git dir is its own common dir.
  }
  return { dotGit, gitDirs: [...new Set([common, gitDir])] };
}

/** A locked file can be bound only if it and every directory up to the checkout are real, not links. */
function bindable(cwd: string, rel: string): string | null {
  if (isAbsolute(rel) || rel.split("/").includes("..")) return null;
  const path = join(cwd, rel);
  if (!lstat(path)?.isFile) return null;
  for (let dir = dirname(path); dir !== cwd; dir = dirname(dir)) {
    if (!within(dir, cwd) || !lstat(dir)?.isDirectory) return null;
  }
  return path;
}

export function buildPolicy(ctx: SpotContext, box: RunSandbox, input: PolicyInput): SandboxPolicy {
  const view = systemView();
  const writable = [input.cwd, ...(input.writable ?? [])];
  for (const dir of input.writable ?? []) Deno.mkdirSync(dir, { recursive: true });
  const git = gitLayout(input.cwd);
  const protectedPaths = [
    ...(git.dotGit ? [git.dotGit] : []),
    ...input.lockedFiles.slice(0, MAX_PROTECTED).map((rel) => bindable(input.cwd, rel)).filter((p) =>
      p !== null
    ),
  ];
  const deno = denoDir(ctx.env);
  const denoCache = lstat(deno)?.isDirectory ? [deno] : [];
  const candidates = [
    ...pathDirs(ctx.env("PATH") ?? ""),
    ...(input.spotRoot ? [SPOT_ROOT] : []),
    ...denoCache,
  ];
  const readOnly = [
    ...view.readOnly,
    ...safeReadRoots(candidates, input.keepOut, writable),
    ...toolPaths(
      [...input.tools, Deno.execPath(), ...(box.probe?.prlimit ? [box.probe.prlimit] : [])],
      input.keepOut,
      writable,
    ),
    ...git.gitDirs.filter((d) => !within(d, input.cwd)),
    ...(input.readOnly ?? []),
    ...(input.home.files ?? []),
  ];
  const env: Record<string, string> = { TMPDIR: "/tmp", ...input.env, HOME: input.home.path };
  if (denoCache.length > 0 && readOnly.includes(deno)) env.DENO_DIR = deno;
  return {
    cwd: input.cwd,
    readOnly: [...new Set(readOnly)],
    symlinks: view.symlinks,
    writable,
    protected: protectedPaths,
    scratch: [{ path: "/tmp", sizeBytes: TMP_SIZE_BYTES }, {
      path: input.home.path,
      sizeBytes: HOME_SIZE_BYTES,
    }],
    env,
    network: input.network,
    limits: { ...DEFAULT_LIMITS, prlimit: box.probe?.prlimit ?? null },
    shell: box.shell,
  };
}

/** What must never be visible: the user's HOME, spot's state and caches (other worktrees), the checkout. */
export function keepOutPaths(ctx: SpotContext, sourceRoot: string): string[] {
  const home = ctx.env("HOME");
  return [
    ...(home ? [home] : []),
    ctx.paths.stateRoot,
    ctx.paths.cacheRoot,
    sourceRoot,
  ].map((p) => realPathOrNull(p) ?? p);
}

/** The run's locked files (recorded at prepare), repo-relative. */
export async function lockedFiles(ctx: SpotContext, runId: string): Promise<string[]> {
  const snapshot = await ctx.store.readJson<LockSnapshot>(runId, "locked.json");
  return snapshot?.files.map((f) => f.path) ?? [];
}
