/**
 * Is delegation paying off here? The last ten reported runs that have a
 * measured saving ratio, their median, and the seed's recommendation.
 */

/** The seed judges delegation on ten runs; fewer is noise. */
export const COHORT_SIZE = 10;
/** Below this median ratio the parent spends most of what it would have: stop delegating implicitly. */
export const DISABLE_BELOW = 0.3;
/** At or above this median ratio delegation does what it is for. */
export const TARGET_RATIO = 0.5;

/** What the cohort says about delegating such tasks: wait for data, stop, tune, or keep going. */
export type Recommendation =
  | "collect-more-data"
  | "disable-implicit-delegation"
  | "keep-explicit-and-tune"
  | "target-met";

/** What the cohort needs from each run's metrics.json. */
export interface CohortRun {
  runId: string;
  createdAt: string;
  savingRatio: number | null;
  committed: boolean;
  finalVerificationPassed: boolean;
  integrated: boolean;
  unresolvedBlockingFindings: number;
  revisionRounds: number;
}

export interface Cohort {
  window: number;
  sampleSize: number;
  runIds: string[];
  /** Reported runs left out because their parent usage was not measured. */
  unmeasuredRunsSkipped: number;
  committedVerificationPassRate: number | null;
  integratedRate: number | null;
  unresolvedBlockingFindings: number;
  medianSavingRatio: number | null;
  medianRevisionRounds: number | null;
  recommendation: Recommendation;
  reason: string;
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const rate = (runs: CohortRun[], pick: (r: CohortRun) => boolean) =>
  runs.length ? runs.filter(pick).length / runs.length : null;

function recommend(size: number, m: number | null): { recommendation: Recommendation; reason: string } {
  if (size < COHORT_SIZE || m === null) {
    return {
      recommendation: "collect-more-data",
      reason: `${size} of ${COHORT_SIZE} measured runs so far`,
    };
  }
  const pct = `${(m * 100).toFixed(1)}%`;
  if (m < DISABLE_BELOW) {
    return {
      recommendation: "disable-implicit-delegation",
      reason: `median saving ratio ${pct} is below ${DISABLE_BELOW * 100}%`,
    };
  }
  if (m >= TARGET_RATIO) {
    return {
      recommendation: "target-met",
      reason: `median saving ratio ${pct} meets ${TARGET_RATIO * 100}%`,
    };
  }
  return {
    recommendation: "keep-explicit-and-tune",
    reason: `median saving ratio ${pct} is between ${DISABLE_BELOW * 100}% and ${TARGET_RATIO * 100}%`,
  };
}

/** `runs` in any order; the newest measured ones form the cohort. */
export function buildCohort(runs: CohortRun[]): Cohort {
  const newest = [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const measured = newest.filter((r) => r.savingRatio !== null);
  const sample = measured.slice(0, COHORT_SIZE);
  const oldestInSample = sample.at(-1)?.createdAt ?? "";
  const m = median(sample.map((r) => r.savingRatio!));
  return {
    window: COHORT_SIZE,
    sampleSize: sample.length,
    runIds: sample.map((r) => r.runId),
    unmeasuredRunsSkipped: newest.filter((r) => r.savingRatio === null && r.createdAt >= oldestInSample)
      .length,
    committedVerificationPassRate: rate(sample, (r) => r.committed && r.finalVerificationPassed),
    integratedRate: rate(sample, (r) => r.integrated),
    unresolvedBlockingFindings: sample.reduce((n, r) => n + r.unresolvedBlockingFindings, 0),
    medianSavingRatio: m,
    medianRevisionRounds: median(sample.map((r) => r.revisionRounds)),
    ...recommend(sample.length, m),
  };
}
