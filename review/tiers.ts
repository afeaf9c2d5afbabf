/**
 * Which review tier a parent should apply, and exactly which hunks to read, so a parent agent can follow
 * it mechanically. Tier C: read the whole diff. Tier B: the self-review admits doubt, so its doubtful
 * parts are read too. Tier A: trust the self-review's map, checked at random.
 *
 * The rule every tier keeps: each hunk of the verified diff is either read (printed by
 * `spot diff --hunks`) or listed as covered by a named criterion whose evidence cites that very hunk.
 * A hunk no evidence cites is always read, whatever else the worker said about its file, and so is a
 * hunk that adds process control, dynamic code, network access or a write outside the tree.
 */
import { BLOCKING_PRIORITIES } from "../schemas/constants.ts";
import type { SelfReview } from "../schemas/self_review.ts";
import { type Hunk, hunksAt, hunksCited } from "../verify/hunks.ts";
import { hunkRisks, riskReason } from "../verify/risky_hunks.ts";
import { type Cited, drawSpotCheck } from "./spot_draw.ts";
import type { SelfReviewSignals } from "./spot_check.ts";

/** How much of a diff the parent must read: C all of it, B the doubted hunks and a spot check, A a spot check. */
export type ReviewTier = "A" | "B" | "C";

export interface GuideHunk {
  file: string;
  newStart: number;
  newCount: number;
  reason: string;
}

export interface CoveredHunk {
  file: string;
  newStart: number;
  newCount: number;
  /** The criteria whose evidence cites this hunk: the parent may spot-check any of them by hand. */
  coveredBy: string[];
}

export interface ReviewGuide {
  tier: ReviewTier;
  /** The diff the guide was made for; `spot diff --hunks` ignores a guide made for another. */
  diffSha256?: string;
  /** The seed of the spot-check draw, kept so the same guide can be rebuilt. */
  seed?: string;
  why: string;
  /** The hunks `spot diff --hunks` prints, in diff order, each with why it is read. */
  hunks: GuideHunk[];
  /** Every other hunk, with the criteria that vouch for it. */
  covered: CoveredHunk[];
  /**
   * How many hunks are shown whatever the self-review says, because they add process control, dynamic
   * code, network access or a write outside the tree (their reason starts with "always shown").
   */
  alwaysShown: number;
  /** Bytes of hunk text `spot diff --hunks` prints: exactly the text of `hunks`. */
  readBytes: number;
  /** Bytes of hunk text in the whole diff (what `spot diff` prints), for comparison. */
  diffBytes: number;
}

type Criterion = SelfReview["acceptanceEvidence"][number];

const encoder = new TextEncoder();
const size = (hunks: Hunk[]) => hunks.reduce((n, h) => n + encoder.encode(h.text).length, 0);
const key = (h: { file: string; newStart: number }) => `${h.file}:${h.newStart}`;
const clip = (text: string) => text.slice(0, 80);
const place = (h: Hunk) => ({ file: h.file, newStart: h.newStart, newCount: h.newCount });

/** Tier C: every hunk, the ones that would be shown at any tier marked with why. */
export function fullReview(hunks: Hunk[], why: string): ReviewGuide {
  const reasons = hunks.map((h) => {
    const risks = hunkRisks(h);
    return risks.length > 0 ? `full review; ${riskReason(risks)}` : "full review";
  });
  return {
    tier: "C",
    why,
    hunks: hunks.map((h, i) => ({ ...place(h), reason: reasons[i] })),
    covered: [],
    alwaysShown: reasons.filter((r) => r !== "full review").length,
    readBytes: size(hunks),
    diffBytes: size(hunks),
  };
}

/** The criteria the worker itself doubts: marked uncertain, or named in `uncertainCriteria`. */
export function doubted(report: SelfReview): Criterion[] {
  const named = new Set(report.uncertainCriteria);
  return report.acceptanceEvidence.filter((c) => c.status === "uncertain" || named.has(c.criterion));
}

/**
 * C when the report cannot be relied on (another diff's hash, an unmet criterion, a P0-P2 finding);
 * B when it is consistent but admits doubt (an uncertain criterion, a P3 finding); A otherwise.
 * A missing self-review never reaches here: the caller writes a full review for it.
 */
export function tierOf(report: SelfReview, signals: SelfReviewSignals): { tier: ReviewTier; why: string } {
  if (signals.diffSha256Mismatch) return { tier: "C", why: "the self-review echoed a different diff hash" };
  const unmet = report.acceptanceEvidence.filter((c) => c.status === "unmet");
  if (unmet.length > 0) {
    return { tier: "C", why: `the self-review reports ${unmet.length} unmet criterion(s)` };
  }
  const blocking = report.findings.filter((f) => BLOCKING_PRIORITIES.has(f.priority));
  if (blocking.length > 0) {
    return { tier: "C", why: `the self-review reports a ${blocking[0].priority} finding` };
  }
  // A name in uncertainCriteria that matches no criterion still counts: the worker said it is unsure.
  const doubts = new Set([...doubted(report).map((c) => c.criterion), ...report.uncertainCriteria]).size;
  const minor = report.findings.length;
  if (doubts > 0 || minor > 0) {
    return {
      tier: "B",
      why: `the self-review doubts ${doubts} criterion(s) and reports ${minor} P3 finding(s)`,
    };
  }
  return { tier: "A", why: "the self-review is consistent" };
}

/** For each hunk key, the criteria whose evidence cites it under the strict `hunksCited` rule. */
export function coverage(report: SelfReview, hunks: Hunk[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of report.acceptanceEvidence) {
    for (const e of c.evidence) {
      for (const h of hunksCited(hunks, e.file, e.line)) {
        const names = out.get(key(h)) ?? [];
        if (!names.includes(clip(c.criterion))) out.set(key(h), [...names, clip(c.criterion)]);
      }
    }
  }
  return out;
}

/** Each hunk that evidence of `criteria` cites (strictly), keyed, in diff order, with how often and by whom. */
function citations(criteria: Criterion[], hunks: Hunk[]): Map<string, Cited> {
  const counts = new Map<string, Cited>();
  for (const c of criteria) {
    for (const e of c.evidence) {
      for (const h of hunksCited(hunks, e.file, e.line)) {
        const held = counts.get(key(h)) ?? { count: 0, criteria: [] };
        held.count++;
        if (!held.criteria.includes(clip(c.criterion))) held.criteria.push(clip(c.criterion));
        counts.set(key(h), held);
      }
    }
  }
  const order = hunks.map(key);
  return new Map([...counts].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0])));
}

/**
 * The guide for a self-review that reached tier A or B. First what is shown whatever the report says (hunks
 * that add process control, dynamic code, network access or a write outside the tree), then the hunks the
 * worker doubts or has findings on, then the spot check (`review/spot_draw.ts`: distinct hunks, the
 * under-cited weighted up, with a seed spot keeps from the worker), then every hunk no evidence cites.
 */
export function guideFromSelfReview(
  report: SelfReview,
  signals: SelfReviewSignals,
  hunks: Hunk[],
  seed: string,
): ReviewGuide {
  const { tier, why } = tierOf(report, signals);
  if (tier === "C") return fullReview(hunks, why);
  const reasons = new Map<string, string>();
  const take = (list: Hunk[], reason: string) =>
    list.forEach((h) => reasons.has(key(h)) || reasons.set(key(h), reason));
  for (const h of hunks) {
    const risks = hunkRisks(h);
    if (risks.length > 0) take([h], riskReason(risks));
  }
  const alwaysShown = reasons.size;
  const doubts = doubted(report);
  for (const c of doubts) {
    for (const e of c.evidence) take(hunksAt(hunks, e.file, e.line), `uncertain: ${clip(c.criterion)}`);
  }
  for (const f of report.findings) {
    take(hunksAt(hunks, f.file, f.line), `${f.priority} finding: ${clip(f.problem)}`);
  }
  const trusted = report.acceptanceEvidence.filter((c) => !doubts.includes(c));
  const drawn = drawSpotCheck(citations(trusted, hunks), {
    count: signals.spotCheckRequired,
    shown: new Set(reasons.keys()),
    seed,
  });
  for (const d of drawn) reasons.set(d.key, d.reason);
  const cover = coverage(report, hunks);
  take(hunks.filter((h) => !cover.has(key(h))), "no evidence cites this hunk");
  const read = hunks.filter((h) => reasons.has(key(h)));
  const shownAlways = alwaysShown > 0 ? `, ${alwaysShown} always shown` : "";
  return {
    tier,
    seed,
    why: `${why}; spot-check ${drawn.length} hunk(s)${shownAlways}`,
    hunks: read.map((h) => ({ ...place(h), reason: reasons.get(key(h))! })),
    covered: hunks.filter((h) => !reasons.has(key(h))).map((h) => ({
      ...place(h),
      coveredBy: cover.get(key(h))!,
    })),
    alwaysShown,
    readBytes: size(read),
    diffBytes: size(hunks),
  };
}
