/**
 * spot's temporary git indexes (a delta's, a snapshot's, a job base's) are named after the process that made
 * them: `.<what>-<pid>-<start>-<random>.index`. The name is the record: whoever finds one later (a `kill -9`
 * skipped its removal) can tell whether its maker still runs, and remove it only when it does not.
 */
import { join } from "../base/path.ts";
import { type ProcessStamp, selfStamp } from "../base/proc_table.ts";

const PATTERN = /^\.([a-z]+)-(\d+)-(\d+|x)-[0-9a-f]{8}\.index(\.lock)?$/;

/** A fresh temporary index path in `dir`, named after this process. */
export function tempIndexPath(dir: string, what: string): string {
  const me = selfStamp();
  return join(dir, `.${what}-${me.pid}-${me.start ?? "x"}-${crypto.randomUUID().slice(0, 8)}.index`);
}

/** The process a file name says made it, or null when the name is not one of spot's temporary indexes. */
export function tempIndexOwner(name: string): ProcessStamp | null {
  const m = PATTERN.exec(name);
  if (!m) return null;
  return { pid: Number(m[2]), start: m[3] === "x" ? null : Number(m[3]) };
}
