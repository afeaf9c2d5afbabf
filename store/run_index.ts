/**
 * The run index: a SQLite file beside the run directories that answers
 * `list` and the dashboard without reading every `state.json`. The run
 * directories stay the truth. The index rereads the runs `save()` marked
 * (index_marks.ts) at each refresh, and is rebuilt from the directories when the runs folder changed behind its
 * back, when a save may have been cut short, or when the file is missing,
 * from another version, or unreadable. The connection is index_db.ts, the
 * consistency rules index_sync.ts, the questions index_query.ts.
 */
import { join } from "../base/path.ts";
import { connectIndex, type IndexConnection, readMeta, writeMeta } from "./index_db.ts";
import * as query from "./index_query.ts";
import type { IndexTotals, Row } from "./index_sql.ts";
import { marksEnd, rebuildIndex, type RebuildResult, skipMarks, syncMarks } from "./index_sync.ts";
import type { SpotPaths } from "./paths.ts";
import type { RunEntry } from "./run_entry.ts";

export type { IndexTotals, RebuildResult };
export type { RunFilter, RunPageQuery } from "./index_query.ts";

/** A folder mtime this close to now may change again within the same clock tick; check it again later. */
const RACY_MS = 2_000;

export class RunIndex {
  readonly file: string;
  #conn: IndexConnection;
  /** Our own writes; SQLite's data_version counts only other connections'. */
  #writes = 0;
  #queue: Promise<void> = Promise.resolve();

  private constructor(readonly paths: SpotPaths) {
    this.file = join(paths.stateRoot, "run-index.sqlite");
    this.#conn = connectIndex(this.file);
  }

  /** Opens (or creates, or replaces an unreadable) index; it is brought up to date by `refresh()`. */
  static open(paths: SpotPaths): RunIndex {
    Deno.mkdirSync(paths.stateRoot, { recursive: true, mode: 0o700 });
    return new RunIndex(paths);
  }

  close(): void {
    this.#conn.db.close();
  }

  /** Changes whenever any process changed the index: cache anything derived from it under this. */
  generation(): string {
    const row = this.#conn.db.prepare("PRAGMA data_version").get() as Row;
    return `${row.data_version}:${this.#writes}`;
  }

  /** Cheap on every call: a stat of the runs folder, of the index file and of the marks, and the marked runs. */
  refresh(): Promise<void> {
    const next = this.#queue.then(() => this.#refresh());
    this.#queue = next.catch(() => {});
    return next;
  }

  async #refresh(): Promise<void> {
    const ino = await Deno.stat(this.file).then((i) => i.ino ?? null, () => -1);
    if (ino !== this.#conn.ino) {
      this.#conn.db.close();
      this.#conn = connectIndex(this.file);
    }
    const db = this.#conn.db;
    const folder = await Deno.stat(this.paths.runsDir).then((i) => i.mtime?.getTime() ?? 0, () => 0);
    if (String(folder) !== readMeta(db, "runs_mtime")) {
      // Marks written before the rebuild are covered by it; those written during it are read next time.
      const marks = marksEnd(this.paths.stateRoot);
      await this.#rebuild();
      skipMarks(db, marks);
      if (Date.now() - folder > RACY_MS) {
        writeMeta(db, "runs_mtime", String(folder));
        this.#writes++;
      }
      return;
    }
    this.#writes += await syncMarks(db, this.paths.stateRoot, this.paths.runsDir);
  }

  /** Compares every run directory with the index and rereads what changed. */
  rebuild(): Promise<RebuildResult> {
    const next = this.#queue.then(() => this.#rebuild());
    this.#queue = next.then(() => {}, () => {});
    return next;
  }

  async #rebuild(): Promise<RebuildResult> {
    const result = await rebuildIndex(this.#conn.db, this.paths.runsDir);
    if (result.updated + result.removed > 0) this.#writes++;
    return result;
  }

  count(filter: query.RunFilter = {}): number {
    return query.countRuns(this.#conn.db, filter);
  }

  /** Newest first, one page. */
  page(q: query.RunPageQuery = {}): RunEntry[] {
    return query.pageRuns(this.#conn.db, q);
  }

  /** Summaries newest first; with `limit`, at most `limit` of them, after skipping the `offset` newest. */
  summaries(filter: query.RunFilter = {}, page: { limit?: number; offset?: number } = {}): unknown[] {
    return query.runSummaries(this.#conn.db, filter, page);
  }

  /** Runs worth tailing: active ones, and any changed since `sinceIso`, most recently changed first. */
  watchList(sinceIso: string, limit: number): { runId: string; createdAt: string }[] {
    return query.watchList(this.#conn.db, sinceIso, limit);
  }

  statusOf(runId: string): string | null {
    return query.statusOf(this.#conn.db, runId);
  }

  profilesUsed(): Set<string> {
    return query.profilesUsed(this.#conn.db);
  }

  totals(): IndexTotals {
    return query.totals(this.#conn.db);
  }
}

const open = new Map<string, RunIndex>();

/** The process's one index for these paths, shared by its readers (`list`, the dashboard, `spot mcp`). */
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
