/** The files of a commit or tree, by path, with mode and blob id: content-addressed, so mtimes mean nothing. */
import { git } from "./git.ts";

export interface TreeEntry {
  mode: string;
  oid: string;
}

/**
 * Listings of full object ids, which name the same tree forever: a verb lists its base once (the lock
 * snapshot, the dependency facts, `.worktreeinclude`).
 */
const listed = new Map<string, Promise<Map<string, TreeEntry>>>();
/** A long-lived process (a job's coordinator) keeps only the last few. */
const KEEP_LISTINGS = 4;

export async function listTree(cwd: string, treeish: string): Promise<Map<string, TreeEntry>> {
  const key = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(treeish) ? `${cwd}\0${treeish}` : null;
  if (!key) return await readTree(cwd, treeish);
  // The listing being read is shared too: checks that run side by side ask for the same trees.
  let known = listed.get(key);
  if (!known) {
    known = readTree(cwd, treeish);
    listed.set(key, known);
    if (listed.size > KEEP_LISTINGS) listed.delete(listed.keys().next().value!);
    known.catch(() => listed.get(key) === known && listed.delete(key));
  }
  return new Map(await known);
}

async function readTree(cwd: string, treeish: string): Promise<Map<string, TreeEntry>> {
  const out = (await git(["ls-tree", "-r", "-z", "--full-tree", treeish], { cwd })).stdout;
  const entries = new Map<string, TreeEntry>();
  for (const record of out.split("\0")) {
    if (!record) continue;
    const tab = record.indexOf("\t");
    const [mode, , oid] = record.slice(0, tab).split(" ");
    entries.set(record.slice(tab + 1), { mode, oid });
  }
  return entries;
}

export async function readBlob(cwd: string, oid: string): Promise<string> {
  return (await git(["cat-file", "blob", oid], { cwd })).stdout;
}
