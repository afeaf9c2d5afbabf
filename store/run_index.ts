/**
 * The run index: a SQLite file beside the run directories that answers
 * `list` and the dashboard without reading every `state.json`. The run
 * directories stay the truth. The index is brought up to date by `save()`,
 * and rebuilt from the directories when the runs folder changed behind its
 * back, when a save may have been cut short, or when the file is missing,
 * from another version, or unreadable.
 */
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import type { RunState } from "../schemas/run_state.ts";
import { readJsonFile } from "./files.ts";
import type { SpotPaths } from "./paths.ts";
import { ACTIVE, asRunState, type MetricsSavings, type RunEntry, toEntry } from "./run_entry.ts";
import {
  entryFromRow,
  INDEX_SCHEMA,
  type IndexTotals,
  readTotals,
  type Row,
  rowParams,
  SCHEMA_VERSION,
} from "./index_sql.ts";

export type { IndexTotals };

/** A folder mtime this close to now may change again within the same clock tick; check it again later. */
const RACY_MS = 2_000;
/** Larger than any index spot will write (10,000 runs is about 8 MB). */
const MMAP_BYTES = 256 * 1024 * 1024;
/** Waits this long for another spot process's write instead of failing at once. */
const BUSY_TIMEOUT_MS = 5_000;

export interface RunFilter {
  status?: string;
  caller?: string;
  /** Only runs someone is, or should be, working on. */
  active?: boolean;
}

export interface RunPageQuery extends RunFilter {
  limit?: number;
  offset?: number;
}

interface Change {
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

function where(filter: RunFilter): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  if (filter.status) (parts.push("status = ?"), params.push(filter.status));
  if (filter.caller) (parts.push("caller = ?"), params.push(filter.caller));
  if (filter.active) parts.push(`status IN (${[...ACTIVE].map((s) => `'${s}'`).join(",")})`);
  return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
}

export class RunIndex {
  readonly file: string;
  #db: DatabaseSync;
  #ino: number | null = null;
  #writes = 0;
  #queue: Promise<void> = Promise.resolve();

  private constructor(readonly paths: SpotPaths) {
    this.file = join(paths.stateRoot, "run-index.sqlite");
    this.#db = this.#connect();
  }

  /** Opens (or creates, or replaces an unreadable) index; it is brought up to date by `refresh()`. */
  static open(paths: SpotPaths): RunIndex {
    Deno.mkdirSync(paths.stateRoot, { recursive: true, mode: 0o700 });
    return new RunIndex(paths);
  }

  #connect(): DatabaseSync {
    try {
      return this.#init();
    } catch {
      // Not a database, or a torn one: it is only a cache, so start again from the run directories.
      for (const suffix of ["", "-wal", "-shm"]) {
        try {
          Deno.removeSync(this.file + suffix);
        } catch { /* already gone */ }
      }
      return this.#init();
    }
  }

  #init(): DatabaseSync {
    try {
      // Goals and worker names are private: SQLite gives its -wal and -shm files this same mode.
      Deno.writeFileSync(this.file, new Uint8Array(), { createNew: true, mode: 0o600 });
    } catch { /* it exists */ }
    const db = new DatabaseSync(this.file);
    try {
      db.exec(
        `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;` +
          // Reads map the file instead of copying it page by page: `list` at 10,000 runs reads it all.
          ` PRAGMA mmap_size = ${MMAP_BYTES};`,
      );
      db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      const version = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as Row | undefined;
      if (version?.value !== SCHEMA_VERSION) {
        db.exec(`DROP TABLE IF EXISTS runs; DELETE FROM meta; ${INDEX_SCHEMA}`);
        db.prepare("INSERT INTO meta (key, value) VALUES ('schema', ?)").run(SCHEMA_VERSION);
      }
      this.#ino = Deno.statSync(this.file).ino ?? null;
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  close(): void {
    this.#db.close();
  }

  /** Changes whenever any process changed the index: cache anything derived from it under this. */
  generation(): string {
    const row = this.#db.prepare("PRAGMA data_version").get() as Row;
    return `${row.data_version}:${this.#writes}`;
  }

  #meta(key: string): string | null {
    const row = this.#db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as Row | undefined;
    return row ? String(row.value) : null;
  }

  #setMeta(key: string, value: string): void {
    this.#db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(key, value);
    this.#writes++;
  }

  /** Called before `state.json` is replaced: a crash before `record` leaves the run marked for a reread. */
  markPending(runId: string): void {
    this.#db.prepare("UPDATE runs SET pending = 1 WHERE run_id = ?").run(runId);
    this.#writes++;
  }

  /** Stores a run's current state; reads its goal and metrics only when they are new. */
  async record(state: RunState): Promise<void> {
    const stamp = await stampOf(join(this.paths.runsDir, state.runId, "state.json"));
    const entry = await this.#entryFor(state);
    this.#upsert(entry, stamp);
  }

  async #entryFor(state: RunState): Promise<RunEntry> {
    const dir = join(this.paths.runsDir, state.runId);
    const old = this.#db.prepare("SELECT goal FROM runs WHERE run_id = ?").get(state.runId) as
      | Row
      | undefined;
    let goal = (old?.goal as string | null | undefined) ?? null;
    if (goal === null) {
      const task = await readJsonFile<{ goal?: unknown }>(join(dir, "task.json")).catch(() => null);
      goal = typeof task?.goal === "string" ? task.goal : null;
    }
    let metrics: MetricsSavings | null = null;
    if (state.lastReportAt) {
      metrics = await readJsonFile<MetricsSavings>(join(dir, "metrics.json")).catch(() => null);
    }
    return toEntry(state, goal, metrics);
  }

  #upsert(entry: RunEntry, stamp: string | null): void {
    this.#db.prepare(
      `INSERT OR REPLACE INTO runs (run_id, status, caller, created_at, updated_at, tokens_in, tokens_out,
        tokens_cached, cost_usd, verification, failure, tokens_avoided, parent_spent, goal, report_at, stamp,
        pending, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
    ).run(...rowParams(entry, stamp));
    this.#writes++;
  }

  #remove(runId: string): void {
    this.#db.prepare("DELETE FROM runs WHERE run_id = ?").run(runId);
    this.#writes++;
  }

  /** What one run directory holds now, or null when it is unchanged since `known`. */
  async #read(runId: string, known: string | null): Promise<Change | null> {
    const path = join(this.paths.runsDir, runId, "state.json");
    const stamp = await stampOf(path);
    if (stamp !== null && stamp === known) return null;
    const state = stamp === null ? null : asRunState(await readJsonFile(path).catch(() => null), runId);
    return { runId, stamp, entry: state ? await this.#entryFor(state) : null };
  }

  /** Applies changes in one short transaction; a run with no readable state leaves the index. */
  #apply(changes: Change[], gone: string[] = []): void {
    if (changes.length === 0 && gone.length === 0) return;
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      for (const c of changes) c.entry ? this.#upsert(c.entry, c.stamp) : this.#remove(c.runId);
      for (const runId of gone) this.#remove(runId);
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  /** Cheap on every call: a stat of the runs folder and of the index file, and the pending rows. */
  refresh(): Promise<void> {
    const next = this.#queue.then(() => this.#refresh());
    this.#queue = next.catch(() => {});
    return next;
  }

  async #refresh(): Promise<void> {
    const ino = await Deno.stat(this.file).then((i) => i.ino ?? null, () => -1);
    if (ino !== this.#ino) {
      this.#db.close();
      this.#db = this.#connect();
    }
    const folder = await Deno.stat(this.paths.runsDir).then((i) => i.mtime?.getTime() ?? 0, () => 0);
    if (String(folder) !== this.#meta("runs_mtime")) {
      await this.#rebuild();
      if (Date.now() - folder > RACY_MS) this.#setMeta("runs_mtime", String(folder));
      return;
    }
    const pending = this.#db.prepare("SELECT run_id FROM runs WHERE pending = 1").all() as Row[];
    const changes: Change[] = [];
    for (const row of pending) changes.push((await this.#read(String(row.run_id), null))!);
    this.#apply(changes);
  }

  /** Compares every run directory with the index and rereads what changed. */
  rebuild(): Promise<RebuildResult> {
    const next = this.#queue.then(() => this.#rebuild());
    this.#queue = next.then(() => {}, () => {});
    return next;
  }

  async #rebuild(): Promise<RebuildResult> {
    const known = new Map<string, string | null>();
    for (const row of this.#db.prepare("SELECT run_id, stamp FROM runs").all() as Row[]) {
      known.set(String(row.run_id), row.stamp as string | null);
    }
    const changes: Change[] = [];
    let scanned = 0;
    try {
      for await (const entry of Deno.readDir(this.paths.runsDir)) {
        if (!entry.isDirectory) continue;
        scanned++;
        const change = await this.#read(entry.name, known.get(entry.name) ?? null);
        known.delete(entry.name);
        if (change) changes.push(change);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    const gone = [...known.keys()];
    this.#apply(changes, gone);
    return {
      scanned,
      updated: changes.length,
      removed: gone.length + changes.filter((c) => !c.entry).length,
    };
  }

  count(filter: RunFilter = {}): number {
    const w = where(filter);
    return Number((this.#db.prepare(`SELECT COUNT(*) AS n FROM runs ${w.sql}`).get(...w.params) as Row).n);
  }

  /** Newest first, one page. */
  page(query: RunPageQuery = {}): RunEntry[] {
    const w = where(query);
    const rows = this.#db.prepare(
      `SELECT * FROM runs ${w.sql} ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?`,
    ).all(...w.params, query.limit ?? 50, query.offset ?? 0) as Row[];
    return rows.map(entryFromRow);
  }

  /** Every matching run's list summary, oldest first (what `spot list` prints). */
  /** Summaries oldest first; with `limit`, the newest `limit` of them (after skipping `offset` newer ones). */
  summaries(filter: RunFilter = {}, page: { limit?: number; offset?: number } = {}): unknown[] {
    const w = where(filter);
    // One string and one parse, about twice as fast as a parse per row at 10,000 runs. The ordered
    // subquery is not flattened into an aggregate (SQLite's rule 16), so its order is kept; an
    // ORDER BY inside group_concat would sort all over again, several times slower.
    const row = this.#db.prepare(
      `SELECT '[' || COALESCE(group_concat(summary, ','), '') || ']' AS list
       FROM (SELECT summary FROM (SELECT summary, created_at, run_id FROM runs ${w.sql}
             ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?) ORDER BY created_at, run_id)`,
    ).get(...w.params, page.limit ?? -1, page.offset ?? 0) as Row;
    return JSON.parse(String(row.list));
  }

  /** Runs worth tailing: active ones, and any changed since `sinceIso`, most recently changed first. */
  watchList(sinceIso: string, limit: number): { runId: string; createdAt: string }[] {
    const active = where({ active: true }).sql.replace("WHERE ", "");
    const rows = this.#db.prepare(
      `SELECT run_id, created_at FROM runs WHERE ${active} OR updated_at > ? ORDER BY updated_at DESC LIMIT ?`,
    ).all(sinceIso, limit) as Row[];
    return rows.map((r) => ({ runId: String(r.run_id), createdAt: String(r.created_at) }));
  }

  statusOf(runId: string): string | null {
    const row = this.#db.prepare("SELECT status FROM runs WHERE run_id = ?").get(runId) as Row | undefined;
    return row ? String(row.status) : null;
  }

  /** Profile names any indexed run used. */
  profilesUsed(): Set<string> {
    const rows = this.#db.prepare("SELECT DISTINCT json_extract(summary, '$.profile') AS p FROM runs")
      .all() as Row[];
    return new Set(rows.map((r) => String(r.p)));
  }

  totals(): IndexTotals {
    return readTotals(this.#db);
  }
}

const open = new Map<string, RunIndex>();

/** The process's shared index for these paths. */
export function runIndexFor(paths: SpotPaths): RunIndex {
  let index = open.get(paths.stateRoot);
  if (!index) {
    index = RunIndex.open(paths);
    open.set(paths.stateRoot, index);
  }
  return index;
}

/** Closes every shared index (tests, and a server shutting down). */
export function closeRunIndexes(): void {
  for (const index of open.values()) index.close();
  open.clear();
}

/**
 * What `RunStore.save()` calls around its write. The index is a cache: if it
 * cannot be updated, it is dropped so the next reader rebuilds it, and the
 * save itself goes on.
 */
export async function saveIndexed(
  paths: SpotPaths,
  state: RunState,
  write: () => Promise<void>,
): Promise<void> {
  let index: RunIndex | null = null;
  try {
    index = runIndexFor(paths);
    index.markPending(state.runId);
  } catch {
    index = null;
  }
  await write();
  try {
    await (index ?? runIndexFor(paths)).record(state);
  } catch {
    // Left pending (or never indexed): the next refresh rereads this run from its directory.
  }
}
