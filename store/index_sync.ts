/**
 * Keeping the run index true to the run directories: a run a save marked
 * (index_marks.ts) is reread at the next refresh, and rows are reread from a
 * directory whose `state.json` changed (by inode, mtime and size) or vanished.
 */
import type { DatabaseSync } from "node:sqlite";
import { join } from "../base/path.ts";
import type { RunState } from "../schemas/run_state.ts";
import { readJsonFile } from "./files.ts";
import { readMeta, writeMeta } from "./index_db.ts";
import { MARKS_FILE } from "./index_marks.ts";
import { RUN_ID_PATTERN } from "../schemas/constants.ts";
import { type Row, rowParams } from "./index_sql.ts";
import { asRunState, type MetricsSavings, type RunEntry, toEntry } from "./run_entry.ts";
import { withPiWorkerUsage } from "./legacy_run.ts";

export interface Change {
  runId: string;
  stamp: string | null;
  entry: RunEntry | null;
}

export interface RebuildResult {
  scanned: number;
  updated: number;
  removed: number;
}

/** inode, mtime and size: a rename-over write always changes at least one of them. */
async function stampOf(path: string): Promise<string | null> {
  try {
    const info = await Deno.stat(path);
    return `${info.ino ?? 0}:${info.mtime?.getTime() ?? 0}:${info.size}`;
  } catch {
    return null;
  }
}

/** A run's row: its goal is read once, its metrics only after a report. */
async function entryFor(db: DatabaseSync, runsDir: string, state: RunState): Promise<RunEntry> {
  const dir = join(runsDir, state.runId);
  const old = db.prepare("SELECT goal FROM runs WHERE run_id = ?").get(state.runId) as Row | undefined;
  let goal = (old?.goal as string | null | undefined) ?? null;
  if (goal === null) {
    const task = await readJsonFile<{ goal?: unknown }>(join(dir, "task.json")).catch(() => null);
    goal = typeof task?.goal === "string" ? task.goal : null;
  }
  let metrics: MetricsSavings | null = null;
  if (state.origin) state = await withPiWorkerUsage(dir, state);
  else if (state.lastReportAt) {
    metrics = await readJsonFile<MetricsSavings>(join(dir, "metrics.json")).catch(() => null);
  }
  return toEntry(state, goal, metrics);
}

function upsert(db: DatabaseSync, entry: RunEntry, stamp: string | null): void {
  db.prepare(
    `INSERT OR REPLACE INTO runs (run_id, status, caller, created_at, updated_at, tokens_in, tokens_out,
      tokens_cached, cost_usd, verification, failure, tokens_avoided, parent_spent, goal, report_at, stamp,
      summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(...rowParams(entry, stamp));
}

/** What one run directory holds now, or null when it is unchanged since `known`. */
async function readRun(
  db: DatabaseSync,
  runsDir: string,
  runId: string,
  known: string | null,
): Promise<Change | null> {
  const path = join(runsDir, runId, "state.json");
  const stamp = await stampOf(path);
  if (stamp !== null && stamp === known) return null;
  const state = stamp === null ? null : asRunState(await readJsonFile(path).catch(() => null), runId);
  return { runId, stamp, entry: state ? await entryFor(db, runsDir, state) : null };
}

/** Applies changes in one short transaction; a run with no readable state leaves the index. */
function applyChanges(db: DatabaseSync, changes: Change[], gone: string[] = []): number {
  if (changes.length === 0 && gone.length === 0) return 0;
  const remove = db.prepare("DELETE FROM runs WHERE run_id = ?");
  db.exec("BEGIN IMMEDIATE");
  try {
    for (const c of changes) c.entry ? upsert(db, c.entry, c.stamp) : remove.run(c.runId);
    for (const runId of gone) remove.run(runId);
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
  return changes.length + gone.length;
}

/** Marks read beyond this many bytes: the file is emptied and every run directory compared once. */
const MAX_MARKS_BYTES = 4 * 1024 * 1024;

/** The marks file's size now, and its inode (another one: it was replaced, and is read from its start). */
function marksAt(file: string): { size: number; ino: string } {
  try {
    const info = Deno.statSync(file);
    return { size: info.size, ino: String(info.ino ?? 0) };
  } catch {
    return { size: 0, ino: "none" };
  }
}

/** Where the last refresh stopped reading marks: a byte offset in the file with that inode. */
function marksRead(db: DatabaseSync): { offset: number; ino: string } {
  return { offset: Number(readMeta(db, "marks_offset") ?? 0), ino: readMeta(db, "marks_ino") ?? "" };
}

/** Where the marks file ends now: taken before a rebuild, so marks written during it are read next time. */
export function marksEnd(stateRoot: string): { size: number; ino: string } {
  return marksAt(join(stateRoot, MARKS_FILE));
}

/** The marks up to `at` count as read (a rebuild covered them). */
export function skipMarks(db: DatabaseSync, at: { size: number; ino: string }): void {
  writeMeta(db, "marks_offset", String(at.size));
  writeMeta(db, "marks_ino", at.ino);
}

/**
 * Rereads the runs marked since the last refresh (index_marks.ts); returns how many rows it wrote. A run
 * whose state.json is as the index has it costs one stat.
 */
export async function syncMarks(db: DatabaseSync, stateRoot: string, runsDir: string): Promise<number> {
  const file = join(stateRoot, MARKS_FILE);
  const at = marksAt(file);
  const read = marksRead(db);
  const from = read.ino === at.ino && read.offset <= at.size ? read.offset : 0;
  if (at.size === from) return 0;
  if (at.size > MAX_MARKS_BYTES) {
    // Emptied first, then every directory compared: a save's mark after the write lands in the new file.
    try {
      Deno.truncateSync(file, 0);
    } catch {
      // Not ours to empty: the directories are compared all the same.
    }
    const result = await rebuildIndex(db, runsDir);
    skipMarks(db, marksAt(file));
    return result.updated + result.removed;
  }
  const bytes = new Uint8Array(at.size - from);
  let got = 0;
  const handle = Deno.openSync(file, { read: true });
  try {
    handle.seekSync(from, Deno.SeekMode.Start);
    while (got < bytes.length) {
      const n = handle.readSync(bytes.subarray(got));
      if (n === null) break;
      got += n;
    }
  } finally {
    handle.close();
  }
  // Up to the last whole line, in bytes: a line still being written is read next time.
  const whole = bytes.subarray(0, got).lastIndexOf(0x0a) + 1;
  const text = new TextDecoder().decode(bytes.subarray(0, whole));
  const ids = new Set(text.split("\n").filter((l) => RUN_ID_PATTERN.test(l)));
  const known = db.prepare("SELECT stamp FROM runs WHERE run_id = ?");
  const changes: Change[] = [];
  for (const runId of ids) {
    const row = known.get(runId) as Row | undefined;
    const change = await readRun(db, runsDir, runId, (row?.stamp as string | null | undefined) ?? null);
    if (change) changes.push(change);
  }
  const written = applyChanges(db, changes);
  writeMeta(db, "marks_offset", String(from + whole));
  writeMeta(db, "marks_ino", at.ino);
  return written;
}

/** Compares every run directory with the index and rereads what changed. */
export async function rebuildIndex(db: DatabaseSync, runsDir: string): Promise<RebuildResult> {
  const known = new Map<string, string | null>();
  for (const row of db.prepare("SELECT run_id, stamp FROM runs").all() as Row[]) {
    known.set(String(row.run_id), row.stamp as string | null);
  }
  const changes: Change[] = [];
  let scanned = 0;
  try {
    for await (const entry of Deno.readDir(runsDir)) {
      if (!entry.isDirectory) continue;
      scanned++;
      const change = await readRun(db, runsDir, entry.name, known.get(entry.name) ?? null);
      known.delete(entry.name);
      if (change) changes.push(change);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const gone = [...known.keys()];
  applyChanges(db, changes, gone);
  return {
    scanned,
    updated: changes.length,
    removed: gone.length + changes.filter((c) => !c.entry).length,
  };
}
