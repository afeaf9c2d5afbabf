/**
 * The headline: parent tokens the delegation avoided. No run can be done
 * both ways, so this is an estimate with its counterfactual spelled out:
 * done directly, the parent's own model would have processed about the
 * tokens the worker used on its implementation and revision turns, on top
 * of what the parent spent planning, reviewing and integrating.
 */
import type { ParentRateCard, ParentSubscription } from "../schemas/config.ts";
import type { Usage } from "../schemas/events.ts";
import type { ParentUsage } from "./parent/usage.ts";
import { priceAt, usdPerCredit, WEEKS_PER_MONTH } from "./pricing.ts";
import { type Landing, landingOf } from "./landing.ts";

export const SAVINGS_BASIS =
  "counterfactual: done directly, the parent's model would have processed about as " +
  "many tokens as the worker used on its implementation and revision turns (input + cache read + cache write + " +
  "output), on top of what the parent spent on delegation; self-review turns are delegation overhead and are not " +
  "counted; only work that landed (integrated, or a read-only turn that succeeded) counts: a blocked, failed or " +
  "discarded run avoided nothing, and a run under way nothing yet; savingRatio = avoided / (avoided + parent spent)";

/** Money saved, in one unit (USD or the plan's credits). */
export interface MoneyFigures {
  /** Spent by the worker instead of the parent. */
  avoided: number;
  /** What the parent spent on the task (planning and review), when measured. */
  parentSpent: number | null;
  /** What the parent would have spent doing it all itself. */
  noDelegation: number | null;
  /** The share saved: avoided over what no delegation would have cost. */
  savingRatio: number | null;
}

/** The parent tokens (and money) a delegation saved. */
export interface ParentSavings {
  /** Always this: an estimate from the worker's usage, not an A/B test. */
  label: "estimate-not-ab-test";
  /** Parent tokens the worker's turns stand for; 0 unless the work landed. */
  estimatedTokensAvoided: number;
  /** The work landed (integrated, or a read-only turn succeeded): only then is anything avoided. */
  landed: boolean;
  /** Why nothing is counted, when the work has not landed (or did not). */
  notLandedReason: string | null;
  /** What the parent spent on the task, when measured. */
  parentTokensSpent: number | null;
  /** The share of tokens saved, when the parent was measured. */
  savingRatio: number | null;
  /** How the estimate was made. */
  basis: string;
  /** The parent's session usage was read. */
  parentMeasured: boolean;
  /** Why it was not, when it was not. */
  parentUnavailableReason: string | null;
  /** The same in money, from the config's rate card and plan. */
  money: {
    rateCard: { model: string; effectiveDate: string; source: string };
    credits: MoneyFigures | null;
    usd: (MoneyFigures & { basis: string }) | null;
  } | null;
  /** Why there is no money figure, when there is none. */
  moneyUnavailableReason: string | null;
}

export type ParentMeasurement =
  | { available: true; agent: string; usage: ParentUsage; totalTokens: number }
  | { available: false; reason: string };

export interface SavingsInput {
  /** The worker's usage on the turns the parent would otherwise have done (run and revise). */
  counterfactual: Usage;
  /** Whether that work landed; only landed work is counted. */
  landing: Landing;
  parent: ParentMeasurement;
  rateCard: ParentRateCard | null;
  subscription: ParentSubscription | null;
}

export function totalTokens(u: Usage): number {
  return u.input + u.output + u.cacheRead + u.cacheWrite;
}

/** The share of the no-delegation cost the delegation saved; null when the parent's spend is unknown. */
export const savingRatio = (avoided: number, spent: number | null): number | null =>
  spent === null || avoided + spent === 0 ? null : avoided / (avoided + spent);

function figures(avoided: number, spent: number | null): MoneyFigures {
  return {
    avoided,
    parentSpent: spent,
    noDelegation: spent === null ? null : avoided + spent,
    savingRatio: savingRatio(avoided, spent),
  };
}

const NOTHING: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/** What is counted as avoided: the worker's turns if their work landed, nothing otherwise. */
export function countedUsage(counterfactual: Usage, landing: Landing): Usage {
  return landing.landed ? counterfactual : NOTHING;
}

function money(input: SavingsInput): Pick<ParentSavings, "money" | "moneyUnavailableReason"> {
  const card = input.rateCard;
  if (!card) return { money: null, moneyUnavailableReason: "no parentRateCard in the config" };
  const { parent } = input;
  if (card.agent && parent.available && card.agent !== parent.agent) {
    return {
      money: null,
      moneyUnavailableReason: `the rate card is for ${card.agent}, the parent is ${parent.agent}`,
    };
  }
  const spentUsage = parent.available ? parent.usage : null;
  const price = (rates: Parameters<typeof priceAt>[0]) =>
    figures(
      priceAt(rates, countedUsage(input.counterfactual, input.landing)),
      spentUsage && priceAt(rates, spentUsage),
    );
  const credits = card.creditsPerMillion ? price(card.creditsPerMillion) : null;
  let usd: (MoneyFigures & { basis: string }) | null = null;
  if (card.usdPerMillion) usd = { ...price(card.usdPerMillion), basis: "rate card usdPerMillion" };
  else if (credits && input.subscription) {
    const plan = input.subscription;
    const rate = usdPerCredit(plan);
    const scale = (n: number | null) => n === null ? null : n * rate;
    usd = {
      avoided: credits.avoided * rate,
      parentSpent: scale(credits.parentSpent),
      noDelegation: scale(credits.noDelegation),
      savingRatio: credits.savingRatio,
      basis: `subscription ${plan.plan}: $${plan.monthlyUsd}/month for ${plan.weeklyAllowanceCredits} ` +
        `credits/week (${WEEKS_PER_MONTH.toFixed(3)} weeks/month); included plan usage, not cash`,
    };
  }
  return {
    money: {
      rateCard: { model: card.model, effectiveDate: card.effectiveDate, source: card.source },
      credits,
      usd,
    },
    moneyUnavailableReason: credits || usd
      ? null
      : "the rate card has neither creditsPerMillion nor usdPerMillion",
  };
}

export function computeParentSavings(input: SavingsInput): ParentSavings {
  const { landing } = input;
  const avoided = totalTokens(countedUsage(input.counterfactual, landing));
  const spent = input.parent.available ? input.parent.totalTokens : null;
  return {
    label: "estimate-not-ab-test",
    estimatedTokensAvoided: avoided,
    landed: landing.landed,
    notLandedReason: landing.reason,
    parentTokensSpent: spent,
    // A run under way has no ratio yet; one that ended without landing saved nothing of what the parent spent.
    savingRatio: landing.landed || landing.ended ? savingRatio(avoided, spent) : null,
    basis: SAVINGS_BASIS,
    parentMeasured: input.parent.available,
    parentUnavailableReason: input.parent.available ? null : input.parent.reason,
    ...money(input),
  };
}

/**
 * The token-only estimate from totals, for views of runs not reported yet: counted only when the run's work
 * landed. `report` uses computeParentSavings with the per-phase usage and the meter.
 */
export function estimateSavings(
  worker: Usage,
  options: { status: string; parentSpent?: number | null },
): ParentSavings {
  const parentSpent = options.parentSpent ?? null;
  return computeParentSavings({
    counterfactual: worker,
    landing: landingOf(options.status),
    parent: parentSpent === null ? { available: false, reason: "not measured yet: run `spot report`" } : {
      available: true,
      agent: "unknown",
      usage: { input: parentSpent, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 },
      totalTokens: parentSpent,
    },
    rateCard: null,
    subscription: null,
  });
}
