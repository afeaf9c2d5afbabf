/**
 * SYMLINK_ESCAPE: the symbolic links the worker's worktree would start with, checked at prepare before any
 * branch or worktree exists. That tree is the base commit's, plus (for a run of its own) the user's
 * uncommitted work as the snapshot copies it: tracked changes staged or not, and untracked files; plus the
 * ignored files `.worktreeinclude` copies in. A link among them that leads outside the repository would let a
 * worker without an OS sandbox write through it, so the run is refused (gates/link_escape.ts decides, purely).
 */
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { git, gitText } from "../git/git.ts";
import { untrackedFiles } from "../git/fingerprint.ts";
import { listTree } from "../git/tree_list.ts";
import { escapingLinks, type LinkEscape } from "./link_escape.ts";
import { includeList } from "../workspace/furnish.ts";

const LINK_MODE = "120000";

/** Where a link comes from, for the message: the base commit, a tracked change, an untracked file, or included. */
export type LinkSource = "tracked" | "changed" | "untracked" | "worktreeinclude";

interface Link {
  target: string;
  source: LinkSource;
}

/** The targets of these blobs, in one git call; a reply that does not line up is an error, never a guess. */
async function blobTexts(cwd: string, oids: string[]): Promise<string[]> {
  if (oids.length === 0) return [];
  const out = (await git(["cat-file", "--batch"], { cwd, stdinText: oids.join("\n") + "\n" })).stdout;
  const encoder = new TextEncoder();
  const texts: string[] = [];
  let pos = 0;
  for (const oid of oids) {
    const eol = out.indexOf("\n", pos);
    const [got, type, size] = out.slice(pos, eol).split(" ");
    if (got !== oid || type !== "blob") {
      throw new SpotError(
        "GIT_FAILED",
        `Cannot read symbolic link ${oid}: git cat-file answered "${got} ${type}"`,
      );
    }
    let end = eol + 1;
    for (let bytes = 0; bytes < Number(size);) {
      const cp = out.codePointAt(end)!;
      bytes += encoder.encode(String.fromCodePoint(cp)).length;
      end += cp > 0xffff ? 2 : 1;
    }
    texts.push(out.slice(eol + 1, end));
    pos = end + 1;
  }
  return texts;
}

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  return await Deno.lstat(path).catch(() => null);
}

/** A link found at a path, or (null) a path whose link the later source removes. */
type Found = [string, Link | null];

/** The base commit's links. */
async function treeLinks(root: string, base: string): Promise<Found[]> {
  const entries = [...(await listTree(root, base))].filter(([, e]) => e.mode === LINK_MODE);
  const targets = await blobTexts(root, entries.map(([, e]) => e.oid));
  return entries.map(([path], i) => [path, { target: targets[i], source: "tracked" }]);
}

/** The checkout's uncommitted state over the base, as the snapshot copies it (git/worktree.ts). */
async function workingLinks(root: string): Promise<Found[]> {
  const [diff, untracked] = await Promise.all([
    gitText(["diff", "--name-only", "-z", "--no-renames", "HEAD"], { cwd: root }),
    untrackedFiles(root),
  ]);
  const changed = diff.split("\0").filter((p) => p.length > 0);
  const found: Found[] = [];
  for (const [paths, source] of [[changed, "changed"], [untracked, "untracked"]] as const) {
    for (const path of paths) {
      const info = await lstatOrNull(join(root, path));
      found.push([path, info?.isSymlink ? { target: await Deno.readLink(join(root, path)), source } : null]);
    }
  }
  return found;
}

/** Links inside the ignored paths `.worktreeinclude` copies in, walked as the copy walks them. */
async function includedLinks(root: string, base: string): Promise<Found[]> {
  const found: Found[] = [];
  const walk = async (rel: string): Promise<void> => {
    const info = await lstatOrNull(join(root, rel));
    if (info?.isSymlink) {
      found.push([rel, { target: await Deno.readLink(join(root, rel)), source: "worktreeinclude" }]);
    } else if (info?.isDirectory) {
      for await (const e of Deno.readDir(join(root, rel))) await walk(join(rel, e.name));
    }
  };
  for (const rel of await includeList({ sourceRoot: root, baseRevision: base })) {
    const ignored = await git(["check-ignore", "-q", "--", rel], { cwd: root, allowFailure: true });
    if (ignored.exitCode === 0) await walk(rel);
  }
  return found;
}

/**
 * Every link the worktree would start with that leads outside the repository, with where it came from. The
 * three sources are read at once, then laid over each other in order: the base, the uncommitted state (which
 * also removes links), the included files.
 */
export async function escapingSourceLinks(
  root: string,
  options: { base: string; startCommit?: string },
): Promise<(LinkEscape & { source: LinkSource })[]> {
  const layers = await Promise.all([
    treeLinks(root, options.startCommit ?? options.base),
    // A job's task starts from the job's own base commit, which already holds the snapshot.
    options.startCommit ? [] : workingLinks(root),
    includedLinks(root, options.base),
  ]);
  const links = new Map<string, Link>();
  for (const [path, link] of layers.flat()) link ? links.set(path, link) : links.delete(path);
  const targets = new Map([...links].map(([path, l]) => [path, l.target]));
  return escapingLinks(targets).map((e) => ({ ...e, source: links.get(e.path)!.source }));
}

/** Refuses the run (SYMLINK_ESCAPE) when a link of its starting tree leads outside the repository. */
export async function refuseEscapingLinks(
  root: string,
  options: { base: string; startCommit?: string },
): Promise<void> {
  const found = await escapingSourceLinks(root, options);
  if (found.length === 0) return;
  const shown = found.slice(0, 5).map((e) => `${e.path} -> ${e.target} (${e.source}, ${e.reason})`);
  const more = found.length > shown.length ? `; and ${found.length - shown.length} more` : "";
  throw new SpotError(
    "SYMLINK_ESCAPE",
    `Cannot prepare: ${found.length} symbolic link(s) in the source lead outside the repository: ${
      shown.join("; ")
    }${more}`,
    {
      details: {
        links: found,
        hint: "remove them or point them inside the repository (relative); an untracked one can also be " +
          "ignored (.gitignore) so the worker's tree never gets it",
      },
    },
  );
}
