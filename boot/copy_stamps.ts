/**
 * What spot's JavaScript copy of itself (boot/copy.ts) is found and judged by: where it lives, what its
 * pointer and sets hold, and a source file's stamp.
 */

/** The copy's folder in the checkout (ignored by git, fmt, lint and tests). */
export const COPY_DIR = ".js-copy";
/** The global base/lazy.ts asks: a checkout module's URL to the URL it loads from, null when it changed. */
export const COPY_HOOK = Symbol.for("spot.js-copy");
/**
 * What the CLI's start found, for `--timings` (cli/main.ts reads it by this symbol): where spot runs from,
 * why when from the sources, and what the check and a build took.
 */
export const COPY_STATUS = Symbol.for("spot.js-copy.status");
export interface CopyStatus {
  from: "copy" | "sources";
  /** Why the sources run. */
  why?: string;
  /** The stamps checked, and how long that took (ms). */
  checked?: { files: number; ms: number };
  /** How long a build made at this start took (ms). */
  buildMs?: number;
}

/** The set of a call whose first word has none of its own: every module. */
export const ALL = "all";

/** What `current.json` holds. */
export interface CopyPointer {
  /** 2: every set also holds the builder's own files (boot/). */
  schemaVersion: 2;
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
  /**
   * The SHA-256 of the paths whose stamps cannot tell a later write (by their index here): Deno gives ctime
   * in whole seconds, so a file changed in the second its stamp was taken could be written again, at the
   * same size with its mtime put back, and keep its stamp. As git does with a "racily clean" entry, such a
   * file is judged by its content.
   */
  racy?: Record<number, string>;
}

/** The SHA-256 of a file's bytes, in hex. */
export async function digest(path: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether each racy path of `set` (those of `indices`, when given) still has its content. */
export async function racyHold(root: string, set: CopySet, indices?: Iterable<number>): Promise<boolean> {
  const racy = set.racy ?? {};
  for (const i of indices ?? Object.keys(racy).map(Number)) {
    if (racy[i] === undefined) continue;
    if (await digest(`${root}/${set.paths[i]}`).catch(() => "") !== racy[i]) return false;
  }
  return true;
}

/**
 * The four numbers of a file's stamp: a write changes its mtime (ms) and ctime (whole seconds in Deno, hence
 * `CopySet.racy`), a replacement its inode.
 */
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

/**
 * The set `name` of `pointer`'s build (`words/<name>.json`, else the set of every module), when every file of
 * it still matches: its paths; null when any does not, or when the build is not one this spot can use.
 */
export async function heldSet(
  root: string,
  pointer: CopyPointer | null,
  name: string,
): Promise<string[] | null> {
  if (pointer?.schemaVersion !== 2 || pointer.deno !== Deno.version.deno) return null;
  const words = `${root}/${COPY_DIR}/${pointer.build}/words`;
  const set = readJson<CopySet>(`${words}/${name}.json`) ?? readJson<CopySet>(`${words}/${ALL}.json`);
  // A set always holds the CLI's main. One that does not (or a set naming nothing, which would hold
  // whatever the build's JavaScript is) was not written by spot: a build landed in the checkout by a diff.
  if (!set?.paths.includes("cli/main.ts")) return null;
  for (let i = 0; i < set.paths.length; i++) {
    if (!stampHolds(`${root}/${set.paths[i]}`, set.stamps, i)) return null;
  }
  return await racyHold(root, set) ? set.paths : null;
}
