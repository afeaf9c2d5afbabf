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

export async function untrackedFiles(root: string): Promise<string[]> {
  const out = await gitText(["ls-files", "--others", "--exclude-standard", "-z"], { cwd: root });
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

export async function sourceFingerprint(root: string): Promise<SourceFingerprint> {
  const [{ head, branch }, status, diff, untracked] = await Promise.all([
    headAndBranch(root),
    git(["status", "--porcelain=v1", "-z", "--untracked-files=all"], { cwd: root }),
    git(["diff", "--binary", "--no-ext-diff", "--no-textconv", "HEAD"], { cwd: root }),
    untrackedFiles(root),
  ]);
  const files = await Promise.all(untracked.map((p) => describeFile(root, p)));
  const digest = await sha256Hex([head, branch ?? "", status.stdout, diff.stdout, ...files].join("\n\0\n"));
  return { head, branch, dirty: status.stdout.length > 0, digest };
}

/** A digest of the checkout's uncommitted state only (status, tracked diff, untracked files), HEAD aside. */
export async function contentDigest(root: string): Promise<string> {
  const [status, diff, untracked] = await Promise.all([
    git(["status", "--porcelain=v1", "-z", "--untracked-files=all"], { cwd: root }),
    git(["diff", "--binary", "--no-ext-diff", "--no-textconv", "HEAD"], { cwd: root }),
    untrackedFiles(root),
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
