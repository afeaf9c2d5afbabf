/**
 * `report`: take the parent's end snapshot, then write metrics.json for
 * machines and a report.md a human reads in 20 seconds, headline first.
 * `--format parent` also renders the final response a parent gives its user.
 */
import { SpotError } from "../errors.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import type { ReviewResult } from "../schemas/review_result.ts";
import type { CohortRun, Recommendation } from "../usage/cohort.ts";
import { buildMetrics, cohortRowFromJson } from "../usage/metrics.ts";
import { meterThread } from "../usage/parent/meter.ts";
import { measureParent } from "../usage/parent/section.ts";
import { type AvailableSnapshot, ParentSnapshot } from "../usage/parent/usage.ts";
import { parentPricing } from "../usage/pricing.ts";
import { renderParentText, renderReportMd, type RunFacts } from "../usage/report_text.ts";
import type { ParentSavings } from "../usage/savings.ts";
import { readSnapshotFile, START_SNAPSHOT_FILE } from "../usage/parent/snapshot_file.ts";
import type { SpotContext } from "../store/context.ts";

/** The latest end snapshot (or why it failed), kept beside the start snapshot. */
const END_SNAPSHOT_FILE = "parent-usage-end.json";
/** Report options that must survive a later `report` run without them. */
const OPTIONS_FILE = "report-options.json";
const FORMATS = ["json", "parent"] as const;

export interface ReportOptions {
  chatgptImageGenerations?: number;
  format?: string;
}

/** How this run's kind of delegation has done lately (the cohort of recent reported runs). */
export interface CohortSummary {
  /** Reported runs in the cohort. */
  sampleSize: number;
  /** Their median share of parent tokens saved. */
  medianSavingRatio: number | null;
  /** Whether to keep delegating such tasks implicitly. */
  recommendation: Recommendation;
  /** Why, in a sentence. */
  reason: string;
}

/** What `report` wrote, and the headline a parent gives its user. */
export interface ReportResult {
  /** One line: the parent tokens the delegation saved, and what the worker cost. */
  headline: string;
  /** The run. */
  runId: string;
  /** The run's status afterwards (`prepared`, `running`, `reviewing`, `approved`, `integrated`, `blocked`, ...). */
  status: string;
  /** The parent's tokens (and credits) saved, as measured or estimated. */
  parentSavings: ParentSavings;
  /** What the worker used and cost. */
  worker: {
    usage: unknown;
    totalTokens: number;
    costUsd: number | null;
    costSource: string;
    /** What a credit-billed CLI (qoder) charged, in its own credits; null for the others. */
    credits: number | null;
  };
  /** How this run compares with earlier ones of its kind. */
  cohort: CohortSummary;
  /** Where metrics.json was written. */
  metricsFile: string;
  /** Where report.md was written. */
  reportFile: string;
  /** With `--format parent`: the text the CLI prints instead of JSON. */
  parentText?: string;
}

function checkOptions(options: ReportOptions): void {
  if (options.format !== undefined && !(FORMATS as readonly string[]).includes(options.format)) {
    throw new SpotError("CLI_USAGE", `Cannot report in format "${options.format}": use json or parent`);
  }
  const n = options.chatgptImageGenerations;
  if (n !== undefined && !(Number.isSafeInteger(n) && n >= 0)) {
    throw new SpotError(
      "CLI_USAGE",
      `Cannot use --chatgpt-image-generations "${n}": expected a whole number`,
    );
  }
}

async function startSnapshot(ctx: SpotContext, runId: string): Promise<ParentSnapshot | Error | null> {
  const stored = await ctx.store.readJson<unknown>(runId, START_SNAPSHOT_FILE).catch((e: Error) => e);
  if (stored instanceof Error) return stored;
  if (stored !== null) {
    const parsed = ParentSnapshot.safeParse(stored);
    return parsed.success ? parsed.data : new Error(`${START_SNAPSHOT_FILE} is not a parent usage snapshot`);
  }
  // Runs prepared before the snapshot was copied into the run directory only recorded its path.
  const routing = await ctx.store.readJson<{ usageStart?: string | null }>(runId, "routing.json")
    .catch(() => null);
  if (!routing?.usageStart) return null;
  return await readSnapshotFile(routing.usageStart).catch((e: Error) => e);
}

async function endSnapshot(ctx: SpotContext, start: ParentSnapshot | Error | null) {
  if (!start || start instanceof Error || !start.available) return null;
  const thread = { threadId: start.threadId, source: start.threadIdSource };
  return await meterThread(start.agent, thread, { env: ctx.env, now: ctx.now }).catch((e: Error) => e);
}

/** Cohort rows of every other reported run. */
async function history(ctx: SpotContext, runId: string): Promise<CohortRun[]> {
  const rows: CohortRun[] = [];
  for (const s of await ctx.store.all()) {
    if (s.runId === runId) continue;
    const raw = await ctx.store.readJson<unknown>(s.runId, "metrics.json").catch(() => null);
    const row = cohortRowFromJson(raw, s.runId, s.createdAt);
    if (row) rows.push(row);
  }
  return rows;
}

type Verification = {
  security?: { passed?: boolean; changedFiles?: string[] };
  commands?: { argv: string[]; passed: boolean }[];
};

export async function reportRun(
  ctx: SpotContext,
  runId: string,
  options: ReportOptions = {},
): Promise<ReportResult> {
  checkOptions(options);
  const lock = await ctx.store.lock(runId);
  try {
    const state = await ctx.store.load(runId);
    const read = <T>(name: string) => ctx.store.readJson<T>(runId, name).catch(() => null);
    const [task, review, verification, saved] = await Promise.all([
      read<ResolvedContract>("task.json"),
      read<ReviewResult>("review.json"),
      read<Verification>("verification.json"),
      read<{ chatgptImageGenerations?: number }>(OPTIONS_FILE),
    ]);
    const images = options.chatgptImageGenerations ?? saved?.chatgptImageGenerations ?? null;
    if (options.chatgptImageGenerations !== undefined) {
      await ctx.store.writeJson(runId, OPTIONS_FILE, { chatgptImageGenerations: images });
    }
    const start = await startSnapshot(ctx, runId);
    const end: AvailableSnapshot | Error | null = await endSnapshot(ctx, start);
    if (end) {
      await ctx.store.writeJson(
        runId,
        END_SNAPSHOT_FILE,
        end instanceof Error ? { error: end.message } : end,
      );
    }
    const metrics = buildMetrics({
      state,
      review,
      securityPassed: verification?.security?.passed ?? null,
      events: await ctx.store.events(runId),
      pricing: ctx.config.profiles[state.profile]?.pricing,
      parent: measureParent(start, end),
      ...parentPricing(ctx.config),
      chatgptImageGenerations: images,
      history: await history(ctx, runId),
      now: ctx.now(),
    });
    const facts: RunFacts = {
      state,
      goal: task?.goal ?? null,
      changedFiles: verification?.security?.changedFiles ?? null,
      checks: verification?.commands?.map((c) => ({ argv: c.argv, passed: c.passed })) ?? null,
    };
    const metricsFile = await ctx.store.writeJson(runId, "metrics.json", metrics);
    const reportFile = await ctx.store.writeText(runId, "report.md", renderReportMd(metrics, facts));
    await ctx.store.save({ ...state, lastReportAt: ctx.now() });
    const w = metrics.worker;
    const c = metrics.cohort;
    return {
      headline: metrics.headline,
      runId,
      status: state.status,
      parentSavings: metrics.parentSavings,
      worker: {
        usage: w.usage,
        totalTokens: w.totalTokens,
        costUsd: w.costUsd,
        costSource: w.costSource,
        credits: w.credits ?? null,
      },
      cohort: {
        sampleSize: c.sampleSize,
        medianSavingRatio: c.medianSavingRatio,
        recommendation: c.recommendation,
        reason: c.reason,
      },
      metricsFile,
      reportFile,
      ...(options.format === "parent" ? { parentText: renderParentText(metrics, facts) } : {}),
    };
  } finally {
    lock.release();
  }
}
