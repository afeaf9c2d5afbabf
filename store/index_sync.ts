/**
 * Keeping the run index true to the run directories: a run's row is written
 * when its state is saved, marked pending before the write so a crash in
 * between is noticed, and rows are reread from a directory whose
 * `state.json` changed (by inode, mtime and size) or vanished.
 */
import type { DatabaseSync } from "node:sqlite";
import { join } from "../base/path.ts";
import type { RunState } from "../schemas/run_state.ts";
import { readJsonFile } from "./files.ts";
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
      pending, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
  ).run(...rowParams(entry, stamp));
}

/** Called before `state.json` is replaced: a crash before `recordRun` leaves the run marked for a reread. */
export function markPending(db: DatabaseSync, runId: string): void {
  db.prepare("UPDATE runs SET pending = 1 WHERE run_id = ?").run(runId);
}

/** Stores a run's current state. */
export async function recordRun(db: DatabaseSync, runsDir: string, state: RunState): Promise<void> {
  const stamp = await stampOf(join(runsDir, state.runId, "state.json"));
  upsert(db, await entryFor(db, runsDir, state), stamp);
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

/** Rereads the runs marked pending; returns how many rows it wrote. */
export async function syncPending(db: DatabaseSync, runsDir: string): Promise<number> {
  const pending = db.prepare("SELECT run_id FROM runs WHERE pending = 1").all() as Row[];
  const changes: Change[] = [];
  for (const row of pending) changes.push((await readRun(db, runsDir, String(row.run_id), null))!);
  return applyChanges(db, changes);
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
