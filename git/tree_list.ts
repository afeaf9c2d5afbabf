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
const listed = new Map<string, Map<string, TreeEntry>>();
/** A long-lived process (a job's coordinator) keeps only the last few. */
const KEEP_LISTINGS = 4;

export async function listTree(cwd: string, treeish: string): Promise<Map<string, TreeEntry>> {
  const key = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(treeish) ? `${cwd}\0${treeish}` : null;
  const known = key ? listed.get(key) : undefined;
  if (known) return new Map(known);
  const entries = await readTree(cwd, treeish);
  if (key) {
    listed.set(key, new Map(entries));
    if (listed.size > KEEP_LISTINGS) listed.delete(listed.keys().next().value!);
  }
  return entries;
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
