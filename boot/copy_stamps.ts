/**
 * What spot's JavaScript copy of itself (boot/copy.ts) is found and judged by: where it lives, what its
 * pointer and sets hold, and a source file's stamp.
 */

/** The copy's folder in the checkout (ignored by git, fmt, lint and tests). */
export const COPY_DIR = ".js-copy";
/** The global base/lazy.ts asks: a checkout module's URL to the URL it loads from, null when it changed. */
export const COPY_HOOK = Symbol.for("spot.js-copy");
/** The set of a call whose first word has none of its own: every module. */
export const ALL = "all";

/** What `current.json` holds. */
export interface CopyPointer {
  schemaVersion: 1;
  /** The Deno that emitted it: another one emits again. */
  deno: string;
  /** The build's folder under `.js-copy/`. */
  build: string;
}

/** A build's modules (all of them in `graph.json`, a word's in `words/<word>.json`) and their stamps. */
export interface CopySet {
  /** Modules relative to the checkout. */
  paths: string[];
  /** Four numbers per path, in order: size, mtime and ctime (ms), inode. */
  stamps: number[];
}

/** The four numbers of a file's stamp: any write to it changes ctime, a replacement the inode. */
export function stampOf(info: Deno.FileInfo): number[] {
  return [info.size, info.mtime?.getTime() ?? -1, info.ctime?.getTime() ?? -1, info.ino ?? -1];
}

/** Whether the file at `path` still has the stamp at `stamps[4 * i]`. */
export function stampHolds(path: string, stamps: readonly number[], i: number): boolean {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch {
    return false;
  }
  return info.size === stamps[4 * i] && (info.mtime?.getTime() ?? -1) === stamps[4 * i + 1] &&
    (info.ctime?.getTime() ?? -1) === stamps[4 * i + 2] && (info.ino ?? -1) === stamps[4 * i + 3];
}

/** A JSON file, or null when it is missing or not JSON. */
export function readJson<T>(path: string): T | null {
  try {
    return JSON.parse(Deno.readTextFileSync(path)) as T;
  } catch {
    return null;
  }
}

/** Drops the pointer, so the next command builds again. */
export function dropPointer(root: string): void {
  try {
    Deno.removeSync(`${root}/${COPY_DIR}/current.json`);
  } catch {
    // Gone already, or a checkout spot cannot write: the stamps refuse the build anyway.
  }
}
