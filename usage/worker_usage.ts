/**
 * The worker's side: tokens per phase and what they cost. Usage comes from
 * the run's event log, so retried attempts count too. A CLI's own cost wins;
 * tokens it reports without a cost are priced at the profile's `pricing`;
 * tokens with neither leave the cost unknown (null), never a made-up zero.
 */
import type { ModelPricing } from "../schemas/config.ts";
import type { Phase, SpotEvent, Usage } from "../schemas/events.ts";
import { addUsage, ZERO_USAGE } from "../schemas/usage_sum.ts";
import { workerCostAt } from "./pricing.ts";
import { totalTokens } from "./savings.ts";

export type CostSource = "reported" | "pricing" | "reported+pricing" | "none" | "unknown";

export interface WorkerSummary {
  usage: Usage;
  totalTokens: number;
  byPhase: Record<Phase, Usage>;
  /** Where the totals come from: the event log, or the run state when the log has no usage. */
  usageSource: "events" | "state";
  costUsd: number | null;
  costSource: CostSource;
  costNote: string | null;
  /** For providers that bill in credits (qoder's `total_credits`), when the adapter reports them. */
  credits: number | null;
}

export interface WorkerUsageInput {
  events: SpotEvent[];
  /** The run state's totals, used when the log holds no usage events. */
  state: { workerUsage: Usage; workerCostUsd: number };
  pricing: ModelPricing | undefined;
}

type UsageEvent = Extract<SpotEvent, { type: "worker_usage" }>;

export function summarizeWorker(input: WorkerUsageInput): WorkerSummary {
  const byPhase: Record<Phase, Usage> = { run: ZERO_USAGE, revise: ZERO_USAGE, "self-review": ZERO_USAGE };
  const records = input.events.filter((e): e is UsageEvent => e.type === "worker_usage");
  if (records.length === 0 && totalTokens(input.state.workerUsage) + input.state.workerCostUsd > 0) {
    records.push({
      type: "worker_usage",
      phase: "run",
      usage: input.state.workerUsage,
      costUsd: input.state.workerCostUsd,
      at: "",
      runId: "",
    });
  }
  let cost = 0;
  let reported = 0;
  let priced = 0;
  let unpriced = 0;
  let credits: number | null = null;
  for (const e of records) {
    byPhase[e.phase] = addUsage(byPhase[e.phase], e.usage);
    const extra = (e as { credits?: unknown }).credits;
    if (typeof extra === "number" && Number.isFinite(extra)) credits = (credits ?? 0) + extra;
    if ((e.costUsd ?? 0) > 0) {
      cost += e.costUsd!;
      reported++;
    } else if (totalTokens(e.usage) > 0) {
      if (input.pricing) {
        cost += workerCostAt(input.pricing, e.usage);
        priced++;
      } else unpriced++;
    }
  }
  const usage = addUsage(addUsage(byPhase.run, byPhase.revise), byPhase["self-review"]);
  const source: CostSource = unpriced > 0
    ? "unknown"
    : reported && priced
    ? "reported+pricing"
    : reported
    ? "reported"
    : priced
    ? "pricing"
    : "none";
  return {
    usage,
    totalTokens: totalTokens(usage),
    byPhase,
    usageSource: input.events.some((e) => e.type === "worker_usage") ? "events" : "state",
    costUsd: unpriced > 0 ? null : cost,
    costSource: source,
    costNote: unpriced > 0
      ? `${unpriced} usage record(s) carry tokens but no cost, and the profile has no pricing`
      : null,
    credits,
  };
}

/** The worker tokens the parent would otherwise have spent: implementation and revision turns. */
export function counterfactualUsage(summary: WorkerSummary): Usage {
  return addUsage(summary.byPhase.run, summary.byPhase.revise);
}
