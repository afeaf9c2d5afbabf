/** How numbers read in report.md, the report's headline and the parent's final response. */
import type { Usage } from "../schemas/events.ts";
import type { MoneyFigures, ParentSavings } from "./savings.ts";

export const int = (n: number) => Math.round(n).toLocaleString("en-US");
export const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
/** Small amounts keep their significant digits: a cheap worker turn costs fractions of a cent. */
export function usd(n: number): string {
  if (n >= 1) return `$${n.toFixed(2)}`;
  const [whole, frac] = n.toFixed(6).split(".");
  return `$${whole}.${frac.replace(/0+$/, "").padEnd(2, "0")}`;
}
export const credits = (n: number) => `${Number(n.toFixed(4))} credits`;

export function usageLine(u: Usage): string {
  return `${int(u.input)} in + ${int(u.cacheRead)} cache read + ${int(u.cacheWrite)} cache write, ` +
    `${int(u.output)} out`;
}

/** Why nothing is counted, for a run whose work has not landed (or did not); empty for landed work. */
export function notLanded(s: Pick<ParentSavings, "landed" | "notLandedReason">): string {
  // metrics.json from before `landed` existed has neither field: it was counted, as it was then.
  return s.landed === false && s.notLandedReason ? ` (${s.notLandedReason})` : "";
}

/** The one sentence every view leads with. */
export function headline(s: ParentSavings): string {
  const lead = `Parent tokens avoided (estimate, not an A/B test): ${int(s.estimatedTokensAvoided)}${
    notLanded(s)
  }`;
  if (s.parentTokensSpent === null) return `${lead}; parent spend not measured: ${s.parentUnavailableReason}`;
  const ratio = s.savingRatio === null ? "n/a" : pct(s.savingRatio);
  return `${lead}; saving ratio ${ratio} against ${
    int(s.parentTokensSpent)
  } parent tokens spent on delegation`;
}

function moneyPart(f: MoneyFigures, show: (n: number) => string): string {
  const spent = f.parentSpent === null
    ? "parent spend not measured"
    : `${show(f.parentSpent)} spent by the parent`;
  const ratio = f.savingRatio === null ? "" : `, saving ratio ${pct(f.savingRatio)}`;
  return `${show(f.avoided)} avoided vs ${spent}${ratio}`;
}

/** The money sentence, or why there is none. */
export function moneyLine(s: ParentSavings): string {
  if (!s.money) return `In money: not priced (${s.moneyUnavailableReason})`;
  const card = s.money.rateCard;
  const parts: string[] = [];
  if (s.money.credits) parts.push(moneyPart(s.money.credits, credits));
  if (s.money.usd) parts.push(`${moneyPart(s.money.usd, usd)} (${s.money.usd.basis})`);
  return `In money (rate card ${card.model}, effective ${card.effectiveDate}, source ${card.source}): ` +
    (parts.length ? parts.join("; ") : `not priced (${s.moneyUnavailableReason})`);
}

/**
 * The worker's model as a person named it: `provider/model` (a model already named under its provider kept
 * whole, never cut to its last segment), and for the replay worker the episode file it played, in full.
 * No spaces, so it fits a `model=` field.
 */
export function modelLabel(w: { adapter: string; provider: string; model: string }): string {
  if (w.adapter === "replay") return `replay:${w.model || "(built-in episode)"}`;
  if (!w.model) return w.provider;
  return w.model.startsWith(`${w.provider}/`) ? w.model : `${w.provider}/${w.model}`;
}
