/**
 * What the run index keeps of one run: the `list` summary plus the few numbers
 * the dashboard sums. Pure: a state (and, when known, its goal and metrics) in,
 * a row out; a `state.json` that does not look like a run gives null.
 */
import type { RunState, Status } from "../schemas/run_state.ts";
import { estimateSavings } from "../usage/savings.ts";
import { landingOf } from "../usage/landing.ts";
import { fromPiWorkerState, isPiWorkerState } from "./legacy_run.ts";

/** Statuses `list --running` shows: a run someone is, or should be, working on. */
export const ACTIVE: ReadonlySet<Status> = new Set([
  "prepared",
  "running",
  "verifying",
  "selfReviewing",
  "reviewing",
  "revising",
]);

/** The goal is shown in a table cell; the rest is one click away in the detail row. */
export const GOAL_CHARS = 240;

export function summarize(s: RunState) {
  return {
    runId: s.runId,
    /** "pi-worker" for a run the original tool wrote: shown, never driven. */
    origin: s.origin ?? "spot",
    status: s.status,
    caller: s.caller,
    profile: s.profile,
    adapter: s.adapter,
    provider: s.provider,
    model: s.model,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    revisionRound: s.revisionRound,
    fallbackUsed: s.fallbackUsed,
    sandbox: s.sandbox,
    /** What a person should read: the backend, or that the user opted out of an OS sandbox. */
    sandboxBackend: s.sandboxDetails
      ? (s.sandboxDetails.optedOut ? "none (opted out)" : s.sandboxDetails.backend)
      : s.sandbox,
    implementationCommit: s.implementationCommit,
    integratedCommit: s.integratedCommit,
    sourceBranch: s.sourceBranch,
    workerBranch: s.workerBranch,
    failure: s.failure?.code ?? null,
  };
}
export type RunSummary = ReturnType<typeof summarize>;

/** One row of the index, as the dashboard reads it. */
export interface RunEntry {
  summary: RunSummary;
  goal: string | null;
  tokensIn: number;
  tokensOut: number;
  tokensCached: number;
  costUsd: number;
  verification: boolean | null;
  tokensAvoided: number;
  parentTokensSpent: number | null;
  reportAt: string | null;
}

/** The part of metrics.json the index reads (written by `spot report`). */
export interface MetricsSavings {
  parentSavings?: { estimatedTokensAvoided?: unknown; parentTokensSpent?: unknown; landed?: unknown };
}

/** A landed run's avoided tokens: its report's, unless that report was made before the work landed. */
function landedAvoided(
  u: RunState["workerUsage"],
  status: string,
  reported: MetricsSavings["parentSavings"],
) {
  const fromReport = reported?.landed === false ? null : count(reported?.estimatedTokensAvoided);
  return fromReport ?? estimateSavings(u, { status }).estimatedTokensAvoided;
}

const STRINGS = ["runId", "status", "caller", "createdAt", "updatedAt"] as const;

/**
 * The state, if the parsed JSON has the fields the index relies on; anything else is skipped. A state the
 * original pi-worker wrote is read as spot's, marked with its origin (its usage is added by the caller).
 */
export function asRunState(value: unknown, dirName?: string): RunState | null {
  if (isPiWorkerState(value, dirName)) return fromPiWorkerState(value);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (STRINGS.some((k) => typeof v[k] !== "string")) return null;
  if (dirName !== undefined && v.runId !== dirName) return null;
  const usage = v.workerUsage as Record<string, unknown> | undefined;
  if (typeof usage !== "object" || usage === null) return null;
  if (!["input", "output", "cacheRead", "cacheWrite"].every((k) => typeof usage[k] === "number")) return null;
  return value as RunState;
}

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

export function toEntry(state: RunState, goal: string | null, metrics: MetricsSavings | null): RunEntry {
  const u = state.workerUsage;
  const reported = metrics?.parentSavings;
  return {
    summary: summarize(state),
    goal: goal === null ? null : goal.slice(0, GOAL_CHARS),
    tokensIn: u.input,
    tokensOut: u.output,
    tokensCached: u.cacheRead,
    costUsd: typeof state.workerCostUsd === "number" ? state.workerCostUsd : 0,
    verification: typeof state.lastVerificationPassed === "boolean" ? state.lastVerificationPassed : null,
    // Only landed work counts, whatever an earlier report (made while the run was under way) wrote.
    tokensAvoided: landingOf(state.status).landed ? landedAvoided(u, state.status, reported) : 0,
    parentTokensSpent: count(reported?.parentTokensSpent),
    reportAt: state.lastReportAt ?? null,
  };
}
