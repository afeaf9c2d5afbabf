/**
 * Turning token counts into money: a worker profile's USD pricing, and the
 * parent's rate card (credits and/or USD per million tokens).
 */
import type { ModelPricing, ParentRateCard, ParentSubscription } from "../schemas/config.ts";
import type { Usage } from "../schemas/events.ts";

const PER_MILLION = 1_000_000;
/** Months are not whole weeks: 52 weeks over 12 months. */
export const WEEKS_PER_MONTH = 52 / 12;

/** USD for a worker turn's usage at the profile's pricing; cache rates default to the input rate. */
export function workerCostAt(pricing: ModelPricing, u: Usage): number {
  return (u.input * pricing.inputPerMillion +
    u.output * pricing.outputPerMillion +
    u.cacheRead * (pricing.cacheReadPerMillion ?? pricing.inputPerMillion) +
    u.cacheWrite * (pricing.cacheWritePerMillion ?? pricing.inputPerMillion)) / PER_MILLION;
}

type PerMillion = NonNullable<ParentRateCard["creditsPerMillion"]>;

/** Tokens at one column of the rate card; a cache write is charged as fresh input unless priced. */
export function priceAt(rates: PerMillion, u: Usage): number {
  return (u.input * rates.nonCachedInput +
    u.cacheRead * rates.cachedInput +
    u.cacheWrite * (rates.cacheWrite ?? rates.nonCachedInput) +
    u.output * rates.output) / PER_MILLION;
}

/** Dollars one credit stands for under the user's plan. */
export function usdPerCredit(plan: ParentSubscription): number {
  return plan.monthlyUsd / (plan.weeklyAllowanceCredits * WEEKS_PER_MONTH);
}

/** The card and plan in effect, accepting the seed's legacy `codex*` names. */
export function parentPricing(config: {
  parentRateCard?: ParentRateCard;
  codexRateCard?: ParentRateCard;
  parentSubscription?: ParentSubscription;
  codexSubscription?: ParentSubscription;
}): { rateCard: ParentRateCard | null; subscription: ParentSubscription | null } {
  return {
    rateCard: config.parentRateCard ?? config.codexRateCard ?? null,
    subscription: config.parentSubscription ?? config.codexSubscription ?? null,
  };
}
