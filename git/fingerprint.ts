/**
 * A digest of everything the user could have changed in their checkout:
 * HEAD, branch, status, the tracked diff and every untracked file. Two equal
 * fingerprints mean the source is as spot left it.
 */
import { join } from "../base/path.ts";
import type { SourceFingerprint } from "../schemas/run_state.ts";
import { git, gitText } from "./git.ts";
import { sha256Hex } from "./hash.ts";
import { headAndBranch } from "./repo.ts";

/** Paths (repo-relative) a fingerprint leaves out: spot's own input files, never anything the worker made. */
export interface FingerprintOptions {
  exclude?: readonly string[];
}

/** The pathspec that leaves `exclude` out of a git listing; none when there is nothing to leave out. */
function pathspec(exclude: readonly string[] = []): string[] {
  return exclude.length === 0 ? [] : ["--", ".", ...exclude.map((p) => `:(exclude,literal)${p}`)];
}

export async function untrackedFiles(root: string, options: FingerprintOptions = {}): Promise<string[]> {
  const out = await gitText([
    "ls-files",
    "--others",
    "--exclude-standard",
    "-z",
    ...pathspec(options.exclude),
  ], {
    cwd: root,
  });
  return out.split("\0").filter((p) => p.length > 0);
}

/** Which of these repo-relative paths are untracked files git does not ignore. */
export async function untrackedAmong(root: string, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const spec = paths.map((p) => `:(literal)${p}`);
  const out = await gitText(["ls-files", "--others", "--exclude-standard", "-z", "--", ...spec], {
    cwd: root,
  });
  return out.split("\0").filter((p) => p.length > 0);
}

async function describeFile(root: string, path: string): Promise<string> {
  const full = join(root, path);
  try {
    const info = await Deno.lstat(full);
    if (info.isSymlink) return `${path}\0link\0${await Deno.readLink(full)}`;
    const content = await sha256Hex(await Deno.readFile(full));
    return `${path}\0${(info.mode ?? 0).toString(8)}\0${content}`;
  } catch {
    return `${path}\0unreadable`;
  }
}

export async function sourceFingerprint(
  root: string,
  options: FingerprintOptions = {},
): Promise<SourceFingerprint> {
  const spec = pathspec(options.exclude);
  const [{ head, branch }, status, diff, untracked] = await Promise.all([
    headAndBranch(root),
    git(["status", "--porcelain=v1", "-z", "--untracked-files=all", ...spec], { cwd: root }),
    git(["diff", "--binary", "--no-ext-diff", "--no-textconv", "HEAD", ...spec], { cwd: root }),
    untrackedFiles(root, options),
  ]);
  const files = await Promise.all(untracked.map((p) => describeFile(root, p)));
  const digest = await sha256Hex([head, branch ?? "", status.stdout, diff.stdout, ...files].join("\n\0\n"));
  return { head, branch, dirty: status.stdout.length > 0, digest };
}

/** The paths `git status` lists as changed or untracked (leaving `exclude` out), for a message. */
export async function dirtyPaths(root: string, options: FingerprintOptions = {}): Promise<string[]> {
  // Raw output: each entry starts with its two status letters, a leading space included.
  const { stdout } = await git(
    ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", ...pathspec(options.exclude)],
    { cwd: root },
  );
  return stdout.split("\0").filter((e) => e.length > 3).map((e) => e.slice(3));
}

/** A digest of the checkout's uncommitted state only (status, tracked diff, untracked files), HEAD aside. */
export async function contentDigest(root: string, options: FingerprintOptions = {}): Promise<string> {
  const spec = pathspec(options.exclude);
  const [status, diff, untracked] = await Promise.all([
    git(["status", "--porcelain=v1", "-z", "--untracked-files=all", ...spec], { cwd: root }),
    git(["diff", "--binary", "--no-ext-diff", "--no-textconv", "HEAD", ...spec], { cwd: root }),
    untrackedFiles(root, options),
  ]);
  const files = await Promise.all(untracked.map((p) => describeFile(root, p)));
  return await sha256Hex([status.stdout, diff.stdout, ...files].join("\n\0\n"));
}

/** What differs between two fingerprints, in words. */
export function describeChange(before: SourceFingerprint, after: SourceFingerprint): string[] {
  const changes: string[] = [];
  if (before.head !== after.head) {
    changes.push(`HEAD moved from ${before.head.slice(0, 12)} to ${after.head.slice(0, 12)}`);
  }
  if (before.branch !== after.branch) {
    changes.push(`branch changed from ${before.branch ?? "(detached)"} to ${after.branch ?? "(detached)"}`);
  }
  if (before.digest !== after.digest && changes.length === 0) changes.push("uncommitted changes differ");
  return changes;
}
