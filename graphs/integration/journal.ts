/**
 * The apply-mode journal (`<job>/integration/journal.json` and `before/<sha256>` blobs): what integration
 * changed in the user's checkout, file by file, so `spot job rollback` can restore exactly that, and refuse
 * files changed since.
 */
import { join } from "../../base/path.ts";
import { sha256Hex } from "../../git/hash.ts";
import type { SpotPaths } from "../../store/paths.ts";
import { readJsonFile, writeJsonAtomic } from "../../store/files.ts";
import { jobFile } from "../store.ts";

/** One side of a file: absent, or its content digest and mode bits. */
export interface FileSide {
  exists: boolean;
  sha256?: string;
  mode?: number;
}

export interface JournalEntry {
  path: string;
  task: string;
  before: FileSide;
  after: FileSide;
}

export interface Journal {
  schemaVersion: 1;
  state: "applying" | "applied" | "rolled-back";
  at: string;
  entries: JournalEntry[];
  /** Set when integration itself put the files back: a write failed part way, and nothing stays applied. */
  failure?: string;
}

export const journalDir = (paths: SpotPaths, jobId: string) => jobFile(paths, jobId, "integration");
const journalFile = (paths: SpotPaths, jobId: string) => join(journalDir(paths, jobId), "journal.json");
export const blobFile = (paths: SpotPaths, jobId: string, sha: string) =>
  join(journalDir(paths, jobId), "before", sha);

/** A file as it is now: absent, or its digest and mode; symlinks are refused by the caller. */
export async function sideOf(path: string): Promise<FileSide & { bytes?: Uint8Array; symlink?: boolean }> {
  const info = await Deno.lstat(path).catch(() => null);
  if (!info) return { exists: false };
  if (info.isSymlink || !info.isFile) return { exists: true, symlink: true };
  const bytes = await Deno.readFile(path);
  return { exists: true, sha256: await sha256Hex(bytes), mode: (info.mode ?? 0o644) & 0o777, bytes };
}

export const sameSide = (a: FileSide, b: FileSide) =>
  a.exists === b.exists && (!a.exists || (a.sha256 === b.sha256 && a.mode === b.mode));

export function readJournal(paths: SpotPaths, jobId: string): Promise<Journal | null> {
  return readJsonFile<Journal>(journalFile(paths, jobId));
}

export async function writeJournal(paths: SpotPaths, jobId: string, journal: Journal): Promise<void> {
  await Deno.mkdir(join(journalDir(paths, jobId), "before"), { recursive: true, mode: 0o700 });
  await writeJsonAtomic(journalFile(paths, jobId), journal);
}

/** Writes a side's content (or removes the file) at `path`. */
export async function restoreSide(path: string, side: FileSide, bytes: Uint8Array | null): Promise<void> {
  if (!side.exists) {
    await Deno.remove(path).catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    });
    return;
  }
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeFile(path, bytes!);
  await Deno.chmod(path, side.mode ?? 0o644);
}
