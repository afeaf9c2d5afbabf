/** The questions `list`, `monitor` and the dashboard ask the run index. Read-only. */
import type { DatabaseSync } from "node:sqlite";
import { ACTIVE, type RunEntry } from "./run_entry.ts";
import { entryFromRow, type IndexTotals, readTotals, type Row } from "./index_sql.ts";

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

function where(filter: RunFilter): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  if (filter.status) (parts.push("status = ?"), params.push(filter.status));
  if (filter.caller) (parts.push("caller = ?"), params.push(filter.caller));
  if (filter.active) parts.push(`status IN (${[...ACTIVE].map((s) => `'${s}'`).join(",")})`);
  return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
}

export function countRuns(db: DatabaseSync, filter: RunFilter = {}): number {
  const w = where(filter);
  return Number((db.prepare(`SELECT COUNT(*) AS n FROM runs ${w.sql}`).get(...w.params) as Row).n);
}

/** Newest first, one page. */
export function pageRuns(db: DatabaseSync, query: RunPageQuery = {}): RunEntry[] {
  const w = where(query);
  const rows = db.prepare(
    `SELECT * FROM runs ${w.sql} ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?`,
  ).all(...w.params, query.limit ?? 50, query.offset ?? 0) as Row[];
  return rows.map(entryFromRow);
}

/** Summaries newest first; with `limit`, at most `limit` of them, after skipping the `offset` newest. */
export function runSummaries(
  db: DatabaseSync,
  filter: RunFilter = {},
  page: { limit?: number; offset?: number } = {},
): unknown[] {
  const w = where(filter);
  // Newest first, like the table and its footer. One string and one parse, about twice as fast as a parse
  // per row at 10,000 runs. The ordered subquery is not flattened into an aggregate (SQLite's rule 16), so
  // its order is kept; an ORDER BY inside group_concat would sort all over again, several times slower.
  const row = db.prepare(
    `SELECT '[' || COALESCE(group_concat(summary, ','), '') || ']' AS list
     FROM (SELECT summary FROM runs ${w.sql} ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?)`,
  ).get(...w.params, page.limit ?? -1, page.offset ?? 0) as Row;
  return JSON.parse(String(row.list));
}

/** Runs worth tailing: active ones, and any changed since `sinceIso`, most recently changed first. */
export function watchList(
  db: DatabaseSync,
  sinceIso: string,
  limit: number,
): { runId: string; createdAt: string }[] {
  const active = where({ active: true }).sql.replace("WHERE ", "");
  const rows = db.prepare(
    `SELECT run_id, created_at FROM runs WHERE ${active} OR updated_at > ? ORDER BY updated_at DESC LIMIT ?`,
  ).all(sinceIso, limit) as Row[];
  return rows.map((r) => ({ runId: String(r.run_id), createdAt: String(r.created_at) }));
}

export function statusOf(db: DatabaseSync, runId: string): string | null {
  const row = db.prepare("SELECT status FROM runs WHERE run_id = ?").get(runId) as Row | undefined;
  return row ? String(row.status) : null;
}

/** Profile names any indexed run used. */
export function profilesUsed(db: DatabaseSync): Set<string> {
  const rows = db.prepare("SELECT DISTINCT json_extract(summary, '$.profile') AS p FROM runs").all() as Row[];
  return new Set(rows.map((r) => String(r.p)));
}

export function totals(db: DatabaseSync): IndexTotals {
  return readTotals(db);
}
