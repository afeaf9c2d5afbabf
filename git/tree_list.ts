/** The files of a commit or tree, by path, with mode and blob id: content-addressed, so mtimes mean nothing. */
import { git } from "./git.ts";

export interface TreeEntry {
  mode: string;
  oid: string;
}

export async function listTree(cwd: string, treeish: string): Promise<Map<string, TreeEntry>> {
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
