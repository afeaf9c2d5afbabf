/**
 * The facts a step's sandbox policy is built from, gathered from the host
 * (stat, realpath, the run's lock list). Gathering is the only I/O; the
 * policy itself is built from these facts by a pure function
 * (step_policy.ts), so what a step may see can be tested without processes.
 */
import { dirname, isAbsolute, join, resolve } from "../base/path.ts";
import { pathDirs, realPathOrNull, type SystemView, systemView, within } from "../sandbox/host_paths.ts";
import { holdsCredentials, resolveTools, type Tool } from "../sandbox/tool_roots.ts";
import type { LockSnapshot } from "../verify/locked.ts";
import { buildGitView, type GitLayout, type GitView } from "../git/sandbox_view.ts";
import type { Identity } from "../git/git.ts";
import type { RunState } from "../schemas/run_state.ts";
import { readBaseline } from "../store/baseline.ts";
import type { SpotContext } from "../store/context.ts";
import type { RunSandbox } from "./run_sandbox.ts";
import { SPOT_ROOT } from "../base/spot_root.ts";
import { denoDir } from "./step_runner.ts";

/** bwrap parses a bounded argv; beyond this many locked files the hash gate alone guards the rest. */
export const MAX_PROTECTED = 512;

export { SPOT_ROOT } from "../base/spot_root.ts";

/** What is true of this host for every step of a run. */
export interface HostFacts {
  system: SystemView;
  /** The user's HOME, real path; what is under it is shown only when vetted (tool_roots.ts). */
  home: string | null;
  /** The existing absolute directories of PATH. */
  pathDirs: string[];
  /** Deno's module cache, when it exists and holds no credential (a step with a private HOME must still find it). */
  denoDir: string | null;
  /** The deno binary (it runs the bridge, and replay workers). */
  deno: string;
  /** Tools every sandbox needs beside the command's own: deno, and prlimit when there is one. */
  baseTools: Tool[];
  /** spot's own checkout, or null when it holds a credential file. */
  spotRoot: string | null;
  /** spot's own `.git` dir inside that checkout, hidden under an empty tmpfs where the checkout is shown. */
  spotGitDir?: string | null;
  /** The backend can mount (bwrap): a view is laid over a real path; otherwise reads are granted by path. */
  mounts?: boolean;
  /** What must never be visible, real paths: the user's HOME, spot's state and caches, the checkout. */
  keepOut: string[];
  /** prlimit inside the sandbox, or null (then `ulimit` in sh). */
  prlimit: string | null;
  /** Absolute path of sh, for the wrapper inside. */
  shell: string;
  /** The bridge program a network channel runs inside the sandbox. */
  bridgeScript: string;
}

/** What is true of the directory a step works in. */
export interface CwdFacts {
  /** The checkout's `.git` file, bound read-only in place; null when there is none or it is a directory. */
  dotGit: string | null;
  /**
   * spot's view of the git dir (git/sandbox_view.ts), shown in place of the real one: objects and the
   * checkout's own metadata, never the parent's config, hooks or info. Null without git metadata.
   */
  gitView: GitView | null;
  /** Locked files that can be bound read-only (real files under real directories), absolute. */
  locked: string[];
}

function lstat(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * The checkout's `.git` (file or dir) and the git directories behind it; null without a usable one (none,
 * a symlink, a pointer that leads nowhere).
 */
export function gitLayout(dir: string): GitLayout | null {
  const dotGit = join(dir, ".git");
  const info = lstat(dotGit);
  if (!info || info.isSymlink) return null;
  if (info.isDirectory) {
    const real = realPathOrNull(dotGit) ?? dotGit;
    return { dotGit, gitDir: real, commonDir: real };
  }
  const pointer = Deno.readTextFileSync(dotGit).match(/^gitdir:\s*(.+)$/m)?.[1]?.trim();
  if (!pointer) return null;
  const gitDir = realPathOrNull(resolve(dir, pointer));
  if (!gitDir) return null;
  let common = gitDir;
  try {
    common = realPathOrNull(resolve(gitDir, Deno.readTextFileSync(join(gitDir, "commondir")).trim())) ??
      gitDir;
  } catch {
    // No commondir file: the git dir is its own common dir.
  }
  return { dotGit, gitDir, commonDir: common };
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

/**
 * The facts of the checkout a step works in. Its git dir is shown as a view spot builds in `viewDir`
 * (emptied and rebuilt for each launch), so the parent's config, hooks and info never reach the step.
 */
export async function cwdFacts(
  cwd: string,
  options: { lockedFiles: string[]; viewDir: string; identity: Identity },
): Promise<CwdFacts> {
  const layout = gitLayout(cwd);
  const locked = options.lockedFiles.slice(0, MAX_PROTECTED).map((rel) => bindable(cwd, rel))
    .filter((p): p is string => p !== null);
  if (!layout) return { dotGit: null, gitView: null, locked };
  const gitView = await buildGitView(layout, { viewDir: options.viewDir, identity: options.identity });
  // A `.git` file is bound in place; a `.git` dir is covered by the view itself.
  return { dotGit: lstat(layout.dotGit)?.isFile ? layout.dotGit : null, gitView, locked };
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

/** The user's HOME, resolved; null when unset. */
export function homeOf(ctx: SpotContext): string | null {
  const home = ctx.env("HOME");
  return home ? realPathOrNull(home) ?? home : null;
}

export function hostFacts(ctx: SpotContext, box: RunSandbox, sourceRoot: string): HostFacts {
  const deno = denoDir(ctx.env);
  const home = homeOf(ctx);
  return {
    system: systemView(),
    home,
    pathDirs: pathDirs(ctx.env("PATH") ?? "", home),
    denoDir: lstat(deno)?.isDirectory && !holdsCredentials(deno) ? deno : null,
    deno: Deno.execPath(),
    baseTools: resolveTools([Deno.execPath(), ...(box.probe?.prlimit ? [box.probe.prlimit] : [])], home),
    spotRoot: holdsCredentials(SPOT_ROOT) ? null : SPOT_ROOT,
    spotGitDir: lstat(join(SPOT_ROOT, ".git"))?.isDirectory ? join(SPOT_ROOT, ".git") : null,
    mounts: box.backend.name === "bwrap",
    keepOut: keepOutPaths(ctx, sourceRoot),
    prlimit: box.probe?.prlimit ?? null,
    shell: box.shell,
    bridgeScript: join(SPOT_ROOT, "sandbox", "bridge.ts"),
  };
}

/** The run's locked files (recorded at prepare), repo-relative; a baseline that cannot be trusted throws. */
export async function lockedFiles(ctx: SpotContext, state: RunState): Promise<string[]> {
  const snapshot = await readBaseline<LockSnapshot>(ctx.store, state, "locked.json");
  return snapshot.files.map((f) => f.path);
}
