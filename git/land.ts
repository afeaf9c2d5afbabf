/**
 * The git half of landing approved work: cherry-picks made in a checkout spot owns (a scratch worktree, never
 * the user's), and the one step that moves the user's branch, a fast-forward to the commit that was checked.
 * If that step fails part way, the paths it would have changed are put back as they were.
 */
import { git, gitText, type Identity } from "./git.ts";
import type { WorktreeRef } from "./worktree.ts";

export type PickResult = { ok: true; commit: string } | { ok: false; reason: string; files: string[] };

const firstLine = (text: string) => text.trim().split("\n")[0] ?? "";

/** Cherry-picks `commit` onto the tree's HEAD (hooks off); a conflict is aborted and described. */
export async function pickOnto(tree: WorktreeRef, commit: string, identity: Identity): Promise<PickResult> {
  const opts = { cwd: tree.path, gitDir: tree.gitDir };
  const pick = await git(["cherry-pick", "--no-edit", "--allow-empty", commit], {
    ...opts,
    identity,
    allowFailure: true,
  });
  if (pick.exitCode === 0) return { ok: true, commit: await gitText(["rev-parse", "HEAD"], opts) };
  const unmerged = await git(["diff", "--name-only", "--diff-filter=U", "-z"], {
    ...opts,
    allowFailure: true,
  });
  const files = unmerged.stdout.split("\0").filter(Boolean);
  await git(["cherry-pick", "--abort"], { ...opts, allowFailure: true });
  const why = firstLine(pick.stderr) || firstLine(pick.stdout) || `exit ${pick.exitCode}`;
  return { ok: false, reason: files.length ? `it conflicts in ${files.join(", ")}` : why, files };
}

/** Puts a scratch tree back at `commit`: tracked files reset, untracked ones a check made (not ignored) removed. */
export async function resetTree(tree: WorktreeRef, commit: string): Promise<void> {
  const opts = { cwd: tree.path, gitDir: tree.gitDir };
  await git(["reset", "--quiet", "--hard", commit], opts);
  await git(["clean", "-q", "-f", "-d"], opts);
}

export interface PathChange {
  path: string;
  /** A added, M modified (content or mode), D deleted, T type changed. */
  status: string;
}

/** Every path that differs between two commits, renames as a delete and an add. */
export async function changedPaths(repo: string, from: string, to: string): Promise<PathChange[]> {
  const out = await gitText(["diff", "--no-renames", "--name-status", "-z", from, to, "--"], { cwd: repo });
  const parts = out.split("\0").filter((p) => p.length > 0);
  const changes: PathChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) changes.push({ status: parts[i][0], path: parts[i + 1] });
  return changes;
}

export async function isAncestor(repo: string, ancestor: string, of: string): Promise<boolean> {
  const r = await git(["merge-base", "--is-ancestor", ancestor, of], { cwd: repo, allowFailure: true });
  return r.exitCode === 0;
}

/**
 * Puts back, in the user's checkout, the paths a landing from `from` to `to` changes: each as `from` has it
 * (index and file), or removed when `from` has none. Only ever called for paths that were clean at `from`.
 */
export async function restorePaths(checkout: string, range: { from: string; to: string }): Promise<void> {
  const changes = await changedPaths(checkout, range.from, range.to);
  const kept = changes.filter((c) => c.status !== "A").map((c) => c.path);
  const added = changes.filter((c) => c.status === "A").map((c) => c.path);
  if (kept.length) {
    await git(["checkout", range.from, "--", ...kept], { cwd: checkout, allowFailure: true });
  }
  if (added.length) {
    await git(["rm", "-q", "-f", "--cached", "--ignore-unmatch", "--", ...added], {
      cwd: checkout,
      allowFailure: true,
    });
    for (const path of added) await Deno.remove(`${checkout}/${path}`).catch(() => {});
  }
}

/** The paths among `changes` that are not clean in the checkout (edited, staged, or an untracked file in the way). */
async function dirtyAmong(checkout: string, changes: PathChange[]): Promise<string[]> {
  if (!changes.length) return [];
  const status = await git(
    [
      "status",
      "--porcelain=v1",
      "-z",
      "--no-renames",
      "--untracked-files=all",
      "--",
      ...changes.map((c) => c.path),
    ],
    { cwd: checkout },
  );
  return status.stdout.split("\0").filter((e) => e.length > 3).map((e) => e.slice(3));
}

/**
 * Moves the user's branch (and checkout) from `from` to its descendant `to`, a fast-forward and nothing else.
 * Refused, with nothing changed, when HEAD is not `from` or a path it changes is not clean; a failure part way
 * puts those paths back as `from` has them (they were clean, so nothing of the user's is lost).
 */
export async function fastForward(
  checkout: string,
  range: { from: string; to: string },
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const head = await gitText(["rev-parse", "HEAD"], { cwd: checkout });
  if (head !== range.from) {
    return { ok: false, reason: `HEAD is ${head.slice(0, 12)}, not ${range.from.slice(0, 12)}` };
  }
  const dirty = await dirtyAmong(checkout, await changedPaths(checkout, range.from, range.to));
  if (dirty.length) return { ok: false, reason: `the checkout has changes in ${dirty.join(", ")}` };
  const merge = await git([
    "-c",
    "gc.auto=0",
    "-c",
    "maintenance.auto=false",
    "merge",
    "--ff-only",
    "--no-verify-signatures",
    "--quiet",
    range.to,
  ], { cwd: checkout, allowFailure: true });
  const after = await gitText(["rev-parse", "HEAD"], { cwd: checkout });
  if (after === range.to) return { ok: true };
  // git refuses before it writes anything when a local change is in the way (one made since the look above).
  const refused = /would be overwritten|not possible to fast-forward/i.test(merge.stderr);
  if (after === range.from && !refused) await restorePaths(checkout, range);
  return {
    ok: false,
    reason: `the fast-forward to ${range.to.slice(0, 12)} failed: ${
      firstLine(merge.stderr) || `exit ${merge.exitCode}`
    }`,
  };
}
