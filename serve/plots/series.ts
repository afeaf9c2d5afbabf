/**
 * What the runs page plots, computed from the run index's rows: parent tokens avoided and worker cost per day
 * or week stacked by profile, each period's outcomes (checks passed or failed, the gate that stopped a run),
 * and each profile's cost per run and share of verified runs that passed. Pure; the numbers are the ones
 * `/api/runs` gives for the same runs (`costUsd`, `parentTokensAvoided`, `verificationPassed`, `failure`).
 */
import { ACTIVE, type RunEntry } from "../../store/run_entry.ts";

export type BucketSize = "day" | "week";

/** Periods on the time axis: a bar stays a few pixels wide on a phone. */
export const MAX_BUCKETS = 60;
/** Profiles stacked by name (most runs first); the rest are summed as "other". */
export const TOP_PROFILES = 8;
/** Gate codes named in the outcomes; the rest are "other gate". */
export const TOP_GATES = 5;
/** Profiles compared side by side (most runs first). */
export const MAX_COMPARED = 12;

export const OTHER = "other";
export const OUTCOME_PASSED = "checks passed";
export const OUTCOME_FAILED = "checks failed";
export const OUTCOME_UNVERIFIED = "not verified";
export const OUTCOME_ACTIVE = "in progress";
export const OTHER_GATE = "other gate";

export interface Stacked {
  bucket: string;
  key: string;
  value: number;
}

export interface ProfileStats {
  profile: string;
  adapter: string;
  runs: number;
  costUsd: number;
  costPerRun: number;
  verified: number;
  passed: number;
  /** Passed over verified; null when no run of it was verified. */
  passRate: number | null;
}

export interface RunSeries {
  by: BucketSize;
  /** Every period from the first plotted to the newest, empty ones included, oldest first. */
  buckets: string[];
  runs: number;
  /** Runs older than the first period (counted, not plotted). */
  older: number;
  profiles: string[];
  avoided: Stacked[];
  cost: Stacked[];
  outcomeNames: string[];
  outcomes: Stacked[];
  compared: ProfileStats[];
}

const DAY_MS = 86_400_000;

/** How spot writes times (`Date.toISOString()`): its first ten characters are the UTC day. */
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const mondays = new Map<string, string>();

/** The period a time falls in: its UTC day, or the Monday that starts its UTC week. */
export function bucketOf(iso: string, by: BucketSize): string {
  let day: string;
  if (ISO_UTC.test(iso)) day = iso.slice(0, 10);
  else {
    // Parsing is the slow part at 10,000 runs; only a hand-edited time needs it.
    const t = Date.parse(iso);
    if (!Number.isFinite(t)) return "";
    day = new Date(t).toISOString().slice(0, 10);
  }
  if (by === "day") return day;
  let monday = mondays.get(day);
  if (monday === undefined) {
    const t = Date.parse(`${day}T00:00:00.000Z`);
    monday = new Date(t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
    if (mondays.size > 10_000) mondays.clear();
    mondays.set(day, monday);
  }
  return monday;
}

/** Days while the runs span fewer than MAX_BUCKETS days, weeks after that. */
export function chooseBucket(entries: readonly RunEntry[]): BucketSize {
  const days = entries.map((e) => bucketOf(e.summary.createdAt, "day")).filter((d) => d !== "").sort();
  if (days.length === 0) return "day";
  const span = Date.parse(days.at(-1)!) - Date.parse(days[0]);
  return span < (MAX_BUCKETS - 1) * DAY_MS ? "day" : "week";
}

/** What a run came to: its gate's code, else its checks, else in progress or not verified. */
export function outcomeOf(e: RunEntry): string {
  if (e.summary.failure) return String(e.summary.failure);
  if (e.verification === true) return OUTCOME_PASSED;
  if (e.verification === false) return OUTCOME_FAILED;
  return ACTIVE.has(e.summary.status) ? OUTCOME_ACTIVE : OUTCOME_UNVERIFIED;
}

function periods(newest: string, by: BucketSize, count: number): string[] {
  const step = by === "day" ? DAY_MS : 7 * DAY_MS;
  const end = Date.parse(`${newest}T00:00:00.000Z`);
  return Array.from(
    { length: count },
    (_, i) => new Date(end - (count - 1 - i) * step).toISOString().slice(0, 10),
  );
}

function ranked(totals: Map<string, number>, top: number): string[] {
  return [...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, top).map(([k]) => k);
}

function sum(into: Map<string, number>, key: string, value: number): void {
  into.set(key, (into.get(key) ?? 0) + value);
}

function stacked(cells: Map<string, number>): Stacked[] {
  return [...cells].filter(([, v]) => v !== 0).map(([k, value]) => {
    const [bucket, key] = k.split("\n");
    return { bucket, key, value };
  });
}

export function runSeries(entries: readonly RunEntry[], by: BucketSize = chooseBucket(entries)): RunSeries {
  const bucketed = entries.map((e) => ({ e, bucket: bucketOf(e.summary.createdAt, by) }))
    .filter((x) => x.bucket !== "");
  const sorted = bucketed.map((x) => x.bucket).sort();
  const newest = sorted.at(-1) ?? "";
  const first = sorted[0] ?? "";
  const step = by === "day" ? DAY_MS : 7 * DAY_MS;
  const span = newest ? Math.round((Date.parse(newest) - Date.parse(first)) / step) + 1 : 0;
  const buckets = newest ? periods(newest, by, Math.min(MAX_BUCKETS, span)) : [];
  const inWindow = bucketed.filter((x) => x.bucket >= (buckets[0] ?? "~"));

  const runsByProfile = new Map<string, number>();
  const gates = new Map<string, number>();
  for (const { e } of inWindow) {
    sum(runsByProfile, String(e.summary.profile), 1);
    if (e.summary.failure) sum(gates, String(e.summary.failure), 1);
  }
  const named = new Set(ranked(runsByProfile, TOP_PROFILES));
  const namedGates = new Set(ranked(gates, TOP_GATES));
  const avoided = new Map<string, number>();
  const cost = new Map<string, number>();
  const outcomes = new Map<string, number>();
  const stats = new Map<string, ProfileStats>();
  for (const { e, bucket } of inWindow) {
    const profile = String(e.summary.profile);
    const key = named.has(profile) ? profile : OTHER;
    sum(avoided, `${bucket}\n${key}`, e.tokensAvoided);
    sum(cost, `${bucket}\n${key}`, e.costUsd);
    const outcome = outcomeOf(e);
    const gate = e.summary.failure && !namedGates.has(outcome) ? OTHER_GATE : outcome;
    sum(outcomes, `${bucket}\n${gate}`, 1);
    const s = stats.get(profile) ??
      {
        profile,
        adapter: String(e.summary.adapter),
        runs: 0,
        costUsd: 0,
        costPerRun: 0,
        verified: 0,
        passed: 0,
        passRate: null,
      };
    s.runs++;
    s.costUsd += e.costUsd;
    if (e.verification !== null) s.verified++;
    if (e.verification === true) s.passed++;
    stats.set(profile, s);
  }
  const compared = ranked(runsByProfile, MAX_COMPARED).map((p) => {
    const s = stats.get(p)!;
    return { ...s, costPerRun: s.costUsd / s.runs, passRate: s.verified ? s.passed / s.verified : null };
  });
  const seen = new Set([...outcomes.keys()].map((k) => k.split("\n")[1]));
  const gateNames = [...ranked(gates, TOP_GATES), ...(seen.has(OTHER_GATE) ? [OTHER_GATE] : [])];
  const outcomeNames = [OUTCOME_PASSED, OUTCOME_FAILED, ...gateNames, OUTCOME_UNVERIFIED, OUTCOME_ACTIVE]
    .filter((o) => seen.has(o));
  const profiles = [...named];
  if (runsByProfile.size > named.size) profiles.push(OTHER);
  return {
    by,
    buckets,
    runs: inWindow.length,
    older: entries.length - inWindow.length,
    profiles,
    avoided: stacked(avoided),
    cost: stacked(cost),
    outcomeNames,
    outcomes: stacked(outcomes),
    compared,
  };
}
