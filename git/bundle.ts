/**
 * Commits moved between machines as git bundles (docs/fleet.md). A bundle is written from a scratch bare
 * repository that borrows the source's objects (an `alternates` file), so no ref is ever made in the user's
 * repository or a run's; it is read with `git bundle unbundle`, which adds objects and touches no ref.
 */
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { git, gitText } from "./git.ts";

/** The bundle format's header ends at the first empty line; a longer header is not one we wrote. */
const MAX_HEADER_BYTES = 1_000_000;

/** A repository's identity across machines: its lowest root commit (clones share it; unrelated repos do not). */
export async function rootCommit(repo: string, commit: string): Promise<string> {
  const roots = (await gitText(["rev-list", "--max-parents=0", commit], { cwd: repo })).split("\n")
    .filter(Boolean).sort();
  if (!roots[0]) throw new SpotError("GIT_FAILED", `Cannot find the root commit of ${commit} in ${repo}`);
  return roots[0];
}

export async function hasCommit(repo: string, commit: string, gitDir?: string): Promise<boolean> {
  const r = await git(["cat-file", "-e", `${commit}^{commit}`], { cwd: repo, gitDir, allowFailure: true });
  return r.exitCode === 0;
}

/** The object directory of a repository (its common git dir's, shared by every worktree of it). */
export async function objectsDir(repo: string, gitDir?: string): Promise<string> {
  return await gitText(["rev-parse", "--path-format=absolute", "--git-path", "objects"], {
    cwd: repo,
    gitDir,
  });
}

/**
 * Writes `commit` and what it needs into `file`, less what the `have` commits reach (those become the bundle's
 * prerequisites). `objects` are object directories that hold them all.
 */
export async function writeBundle(
  file: string,
  options: { objects: string[]; commit: string; have?: string[]; scratch: string },
): Promise<void> {
  const dir = await Deno.makeTempDir({ dir: options.scratch, prefix: "bundle-" });
  try {
    await git(["init", "--quiet", "--bare", dir], { cwd: options.scratch });
    await Deno.writeTextFile(join(dir, "objects", "info", "alternates"), options.objects.join("\n") + "\n");
    await git(["update-ref", "refs/spot/bundle", options.commit], { cwd: dir });
    const have = (options.have ?? []).map((c) => `^${c}`);
    await git(["bundle", "create", "--quiet", file, "refs/spot/bundle", ...have], { cwd: dir });
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** A bundle's header: the commits it needs the reader to have, and the commits it carries. */
export async function readBundleHeader(file: string): Promise<{ prerequisites: string[]; heads: string[] }> {
  const f = await Deno.open(file);
  try {
    const buf = new Uint8Array(MAX_HEADER_BYTES);
    const n = (await f.read(buf)) ?? 0;
    const text = new TextDecoder().decode(buf.subarray(0, n));
    const end = text.indexOf("\n\n");
    const lines = (end < 0 ? text : text.slice(0, end)).split("\n");
    if (!/^# v[23] git bundle$/.test(lines[0] ?? "")) {
      throw new SpotError("GIT_FAILED", `Cannot read "${file}" as a git bundle`);
    }
    const prerequisites = lines.filter((l) => l.startsWith("-")).map((l) => l.slice(1).split(" ")[0]);
    const heads = lines.slice(1).filter((l) => /^[0-9a-f]{40}/.test(l)).map((l) => l.split(" ")[0]);
    return { prerequisites, heads };
  } finally {
    f.close();
  }
}

/** Adds the bundle's objects to `repo` (its prerequisites must be there); no ref changes. */
export async function unbundle(repo: string, file: string, gitDir?: string): Promise<void> {
  await git(["bundle", "unbundle", file], { cwd: repo, gitDir });
}

/** A commit of `tree` on `parent`, made without a ref (the transport commit of a verified result). */
export async function commitTree(
  worktree: { path: string; gitDir: string },
  options: { tree: string; parent: string; message: string },
): Promise<string> {
  return await gitText(["commit-tree", options.tree, "-p", options.parent, "-m", options.message], {
    cwd: worktree.path,
    gitDir: worktree.gitDir,
    identity: { name: "spot executor", email: "spot@localhost" },
  });
}

/**
 * Makes the worktree's files those of `tree` while its HEAD and index stay at the base: what the worker's turn
 * would have left, uncommitted, for spot's gates to read.
 */
export async function checkoutTreeAsChanges(worktree: { path: string; gitDir: string }, tree: string) {
  const at = { cwd: worktree.path, gitDir: worktree.gitDir };
  // A snapshot's index was written without the files' stat data: refresh it, or the merge calls them changed.
  await git(["update-index", "-q", "--refresh"], { ...at, allowFailure: true });
  await git(["read-tree", "-m", "-u", "HEAD", tree], at);
  await git(["read-tree", "HEAD"], at);
}
