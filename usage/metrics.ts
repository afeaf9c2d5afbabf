/**
 * metrics.json: one run's quality, parent, worker, counterfactual, cash and
 * cohort figures, headline first. Pure: the report verb gathers the inputs.
 */
import type { ModelPricing, ParentRateCard, ParentSubscription } from "../schemas/config.ts";
import type { SpotEvent, Usage } from "../schemas/events.ts";
import { BLOCKING_PRIORITIES, type ReviewResult } from "../schemas/review_result.ts";
import type { RunState } from "../schemas/run_state.ts";
import { buildCohort, type Cohort, type CohortRun } from "./cohort.ts";
import { headline } from "./format.ts";
import type { ParentSection } from "./parent/section.ts";
import { landingOf } from "./landing.ts";
import {
  computeParentSavings,
  countedUsage,
  type ParentMeasurement,
  type ParentSavings,
  SAVINGS_BASIS,
} from "./savings.ts";
import { counterfactualUsage, summarizeWorker, type WorkerSummary } from "./worker_usage.ts";

export interface MetricsInput {
  state: RunState;
  review: ReviewResult | null;
  securityPassed: boolean | null;
  events: SpotEvent[];
  pricing: ModelPricing | undefined;
  parent: { section: ParentSection; measurement: ParentMeasurement };
  rateCard: ParentRateCard | null;
  subscription: ParentSubscription | null;
  chatgptImageGenerations: number | null;
  /** Other runs' cohort rows (this run's is added here). */
  history: CohortRun[];
  now: string;
}

export interface Metrics {
  schemaVersion: 1;
  runId: string;
  status: string;
  generatedAt: string;
  elapsedMs: number;
  headline: string;
  parentSavings: ParentSavings;
  quality: {
    finalVerificationPassed: boolean;
    securityPassed: boolean;
    unresolvedBlockingFindings: number;
    revisionRounds: number;
    fallbackUsed: boolean;
    committed: boolean;
    integrated: boolean;
    verdict: "approve" | "revise" | null;
  };
  parent: ParentSection & { rateCard: { model: string; effectiveDate: string; source: string } | null };
  worker: WorkerSummary & {
    profile: string;
    adapter: string;
    provider: string;
    model: string;
    durationMs: number;
    attempts: number;
    pricing: ModelPricing | null;
  };
  counterfactual: {
    label: "estimate-not-ab-test";
    basis: string;
    phasesCounted: ["run", "revise"];
    workerUsageCounted: Usage;
  };
  cash: {
    workerCostUsd: number | null;
    workerCostPerIntegratedTaskUsd: number | null;
    parentCashSavedUsd: number | null;
    note: string;
  };
  visual: { chatgptImageGenerations: number | null; note: string };
  cohort: Cohort;
}

/** The row this run contributes to later cohorts. */
export function cohortRow(
  m: Pick<Metrics, "runId" | "parentSavings" | "quality">,
  createdAt: string,
): CohortRun {
  return {
    runId: m.runId,
    createdAt,
    savingRatio: m.parentSavings.savingRatio,
    committed: m.quality.committed,
    finalVerificationPassed: m.quality.finalVerificationPassed,
    integrated: m.quality.integrated,
    unresolvedBlockingFindings: m.quality.unresolvedBlockingFindings,
    revisionRounds: m.quality.revisionRounds,
  };
}

function cash(savings: ParentSavings, worker: WorkerSummary, integrated: boolean): Metrics["cash"] {
  const apiBilled = savings.money?.usd?.basis === "rate card usdPerMillion";
  return {
    workerCostUsd: worker.costUsd,
    workerCostPerIntegratedTaskUsd: integrated ? worker.costUsd : null,
    parentCashSavedUsd: apiBilled ? savings.money!.usd!.avoided : savings.money?.credits ? 0 : null,
    note: apiBilled
      ? "the parent is billed per token (usdPerMillion), so avoided usage is cash"
      : "a subscription parent's avoided usage frees included allowance; it is not cash",
  };
}

export function buildMetrics(input: MetricsInput): Metrics {
  const { state } = input;
  const worker = summarizeWorker({ events: input.events, state, pricing: input.pricing });
  const landing = landingOf(state.status);
  const counterfactual = counterfactualUsage(worker);
  const parentSavings = computeParentSavings({
    counterfactual,
    landing,
    parent: input.parent.measurement,
    rateCard: input.rateCard,
    subscription: input.subscription,
  });
  const integrated = state.status === "integrated";
  const card = parentSavings.money?.rateCard ?? null;
  const m: Omit<Metrics, "cohort"> = {
    schemaVersion: 1,
    runId: state.runId,
    status: state.status,
    generatedAt: input.now,
    elapsedMs: Date.parse(state.updatedAt) - Date.parse(state.createdAt),
    headline: headline(parentSavings),
    parentSavings,
    quality: {
      finalVerificationPassed: state.lastVerificationPassed === true,
      securityPassed: input.securityPassed === true,
      unresolvedBlockingFindings: input.review?.findings.filter((f) => BLOCKING_PRIORITIES.has(f.priority))
        .length ?? 0,
      revisionRounds: state.revisionRound,
      fallbackUsed: state.fallbackUsed,
      committed: state.implementationCommit !== null,
      integrated,
      verdict: input.review?.verdict ?? null,
    },
    parent: { ...input.parent.section, rateCard: card },
    worker: {
      profile: state.profile,
      adapter: state.adapter,
      provider: state.provider,
      model: state.model,
      ...worker,
      durationMs: state.workerDurationMs,
      attempts: state.workerAttempts,
      pricing: input.pricing ?? null,
    },
    counterfactual: {
      label: "estimate-not-ab-test",
      basis: SAVINGS_BASIS,
      phasesCounted: ["run", "revise"],
      // Zero unless the work landed: the parent did not avoid work that never reached the user.
      workerUsageCounted: countedUsage(counterfactual, landing),
    },
    cash: cash(parentSavings, worker, integrated),
    visual: {
      chatgptImageGenerations: input.chatgptImageGenerations,
      note: "images made in ChatGPT on the web for the same task: included plan usage, not metered here",
    },
  };
  const others = input.history.filter((r) => r.runId !== state.runId);
  const cohort = buildCohort([...others, cohortRow(m, state.createdAt)]);
  return { ...m, cohort };
}

/** A cohort row from another run's metrics.json, which may come from an older spot; null if unusable. */
export function cohortRowFromJson(raw: unknown, runId: string, createdAt: string): CohortRun | null {
  if (typeof raw !== "object" || raw === null) return null;
  const m = raw as { parentSavings?: { savingRatio?: unknown }; quality?: Record<string, unknown> };
  const q = m.quality;
  if (!q) return null;
  const ratio = m.parentSavings?.savingRatio;
  return {
    runId,
    createdAt,
    savingRatio: typeof ratio === "number" && Number.isFinite(ratio) ? ratio : null,
    committed: q.committed === true,
    finalVerificationPassed: q.finalVerificationPassed === true,
    integrated: q.integrated === true,
    unresolvedBlockingFindings: typeof q.unresolvedBlockingFindings === "number"
      ? q.unresolvedBlockingFindings
      : 0,
    revisionRounds: typeof q.revisionRounds === "number" ? q.revisionRounds : 0,
  };
}
