/**
 * What a new tree (the worker's worktree, a pristine verification tree) gets
 * besides the tracked files: the ignored files `.worktreeinclude` lists, copied
 * from the source checkout, and, without an OS sandbox to bind them, links to
 * the run's dependency dirs. A tree that already has one keeps its own.
 */
import { dirname, join } from "../base/path.ts";
import { git } from "../git/git.ts";
import { listTree } from "../git/tree_list.ts";
import type { RunState } from "../schemas/run_state.ts";

/** The paths `.worktreeinclude` lists at the base revision: one repo-relative file or dir a line, `#` comments. */
export async function includeList(state: Pick<RunState, "sourceRoot" | "baseRevision">): Promise<string[]> {
  // The base's listing is usually known already (the lock snapshot read it): no file, no git call.
  if (!(await listTree(state.sourceRoot, state.baseRevision)).has(".worktreeinclude")) return [];
  const r = await git(["show", `${state.baseRevision}:.worktreeinclude`], {
    cwd: state.sourceRoot,
    allowFailure: true,
  });
  if (r.exitCode !== 0) return [];
  return r.stdout.split("\n").map((l) => l.replace(/#.*$/, "").trim().replace(/\/+$/, ""))
    .filter((l) => l && !l.startsWith("/") && !l.split("/").includes("..") && !l.split("/").includes(".git"));
}

async function copyTree(from: string, to: string): Promise<void> {
  const info = await Deno.lstat(from);
  await Deno.mkdir(dirname(to), { recursive: true });
  if (info.isSymlink) {
    await Deno.symlink(await Deno.readLink(from), to);
  } else if (info.isDirectory) {
    await Deno.mkdir(to, { recursive: true });
    for await (const e of Deno.readDir(from)) await copyTree(join(from, e.name), join(to, e.name));
  } else {
    await Deno.copyFile(from, to);
  }
}

/** Copies the listed paths that exist in the source checkout and that git ignores there; returns them. */
export async function copyIncluded(state: RunState, list: string[], dir: string): Promise<string[]> {
  const copied: string[] = [];
  for (const rel of list) {
    const from = join(state.sourceRoot, rel);
    if (!(await Deno.lstat(from).catch(() => null))) continue;
    const ignored = await git(["check-ignore", "-q", "--", rel], {
      cwd: state.sourceRoot,
      allowFailure: true,
    });
    // A tracked or unignored file is the tree's own business, never copied over it.
    if (ignored.exitCode !== 0) continue;
    if (await Deno.lstat(join(dir, rel)).catch(() => null)) continue;
    await copyTree(from, join(dir, rel));
    copied.push(rel);
  }
  return copied;
}

/** Without an OS sandbox there is nothing to bind with: the tree gets links to the dependency dirs. */
export async function linkDependencies(state: RunState, dir: string): Promise<void> {
  for (const d of state.dependencies?.dirs ?? []) {
    const at = join(dir, d.path);
    if (await Deno.lstat(at).catch(() => null)) continue;
    await Deno.mkdir(dirname(at), { recursive: true });
    await Deno.symlink(d.from, at);
  }
}

/** Everything a new tree of this run needs beyond its tracked files. */
export async function furnishTree(state: RunState, dir: string): Promise<void> {
  await copyIncluded(state, state.dependencies?.include ?? [], dir);
  if (state.sandbox !== "os") await linkDependencies(state, dir);
}
