/** The index's table and the mapping between its rows and `RunEntry`. */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { RunEntry } from "./run_entry.ts";

/** Bump when the table or a row's meaning changes: an index of another version is dropped and rebuilt. */
export const SCHEMA_VERSION = "4";

export const INDEX_SCHEMA = `
CREATE TABLE runs (
  run_id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  caller TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  tokens_in INTEGER NOT NULL,
  tokens_out INTEGER NOT NULL,
  tokens_cached INTEGER NOT NULL,
  cost_usd REAL NOT NULL,
  verification INTEGER,
  failure TEXT,
  tokens_avoided INTEGER NOT NULL,
  parent_spent INTEGER,
  goal TEXT,
  report_at TEXT,
  stamp TEXT,
  summary TEXT NOT NULL
);
CREATE INDEX runs_created ON runs (created_at, run_id);
CREATE INDEX runs_status ON runs (status, created_at);
CREATE INDEX runs_caller ON runs (caller, created_at);
CREATE INDEX runs_updated ON runs (updated_at);
`;

export type Row = Record<string, SQLInputValue>;

export function rowParams(e: RunEntry, stamp: string | null): SQLInputValue[] {
  const s = e.summary;
  return [
    s.runId,
    s.status,
    s.caller,
    s.createdAt,
    s.updatedAt,
    e.tokensIn,
    e.tokensOut,
    e.tokensCached,
    e.costUsd,
    e.verification === null ? null : e.verification ? 1 : 0,
    s.failure,
    e.tokensAvoided,
    e.parentTokensSpent,
    e.goal,
    e.reportAt,
    stamp,
    JSON.stringify(s),
  ];
}

export function entryFromRow(row: Row): RunEntry {
  return {
    summary: JSON.parse(String(row.summary)),
    goal: row.goal === null ? null : String(row.goal),
    tokensIn: Number(row.tokens_in),
    tokensOut: Number(row.tokens_out),
    tokensCached: Number(row.tokens_cached),
    costUsd: Number(row.cost_usd),
    verification: row.verification === null ? null : row.verification === 1,
    tokensAvoided: Number(row.tokens_avoided),
    parentTokensSpent: row.parent_spent === null ? null : Number(row.parent_spent),
    reportAt: row.report_at === null ? null : String(row.report_at),
  };
}

export interface IndexTotals {
  runs: number;
  byCaller: Record<string, number>;
  byStatus: Record<string, number>;
  byFailure: Record<string, number>;
  verification: { passed: number; failed: number; none: number };
  tokensIn: number;
  tokensOut: number;
  tokensCached: number;
  costUsd: number;
  tokensAvoided: number;
  /** Parent tokens and the avoided tokens of the same runs, over runs a parent meter covered. */
  metered: { runs: number; parentTokensSpent: number; tokensAvoided: number };
}

export function readTotals(db: DatabaseSync): IndexTotals {
  const group = (column: string, extra = "") =>
    Object.fromEntries(
      (db.prepare(`SELECT ${column} AS k, COUNT(*) AS n FROM runs ${extra} GROUP BY ${column}`)
        .all() as Row[]).map((r) => [String(r.k), Number(r.n)]),
    );
  const sums = db.prepare(
    `SELECT COUNT(*) AS runs, TOTAL(tokens_in) AS ti, TOTAL(tokens_out) AS tout, TOTAL(tokens_cached) AS tc,
      TOTAL(cost_usd) AS cost, TOTAL(tokens_avoided) AS avoided,
      SUM(verification = 1) AS vp, SUM(verification = 0) AS vf,
      SUM(parent_spent IS NOT NULL) AS mruns, TOTAL(parent_spent) AS pspent,
      TOTAL(CASE WHEN parent_spent IS NOT NULL THEN tokens_avoided END) AS mavoided FROM runs`,
  ).get() as Row;
  const runs = Number(sums.runs);
  const vp = Number(sums.vp ?? 0);
  const vf = Number(sums.vf ?? 0);
  return {
    runs,
    byCaller: group("caller"),
    byStatus: group("status"),
    byFailure: group("failure", "WHERE failure IS NOT NULL"),
    verification: { passed: vp, failed: vf, none: runs - vp - vf },
    tokensIn: Number(sums.ti),
    tokensOut: Number(sums.tout),
    tokensCached: Number(sums.tc),
    costUsd: Number(sums.cost),
    tokensAvoided: Number(sums.avoided),
    metered: {
      runs: Number(sums.mruns ?? 0),
      parentTokensSpent: Number(sums.pspent),
      tokensAvoided: Number(sums.mavoided),
    },
  };
}
