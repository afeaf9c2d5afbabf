/**
 * Which review tier a parent should apply, and exactly which hunks to read,
 * so a parent agent can follow it mechanically. Tier A: read self-review.json
 * and the listed hunks. Tier C: read the whole diff.
 */
import type { SelfReview } from "../schemas/self_review.ts";
import { type Hunk, hunksAt } from "../verify/hunks.ts";
import type { SelfReviewSignals } from "./spot_check.ts";

export interface GuideHunk {
  file: string;
  newStart: number;
  newCount: number;
  reason: string;
}

export interface ReviewGuide {
  tier: "A" | "C";
  /** The seed of the spot-check draw, kept so the same guide can be rebuilt. */
  seed?: string;
  why: string;
  hunks: GuideHunk[];
  /** Bytes of hunk text the guide asks the parent to read. */
  hunkBytes: number;
  /** Bytes of the whole diff, for comparison. */
  diffBytes: number;
}

const size = (hunks: Hunk[]) => hunks.reduce((n, h) => n + new TextEncoder().encode(h.text).length, 0);
const key = (h: Hunk) => `${h.file}:${h.newStart}`;

export function fullReview(hunks: Hunk[], why: string): ReviewGuide {
  const bytes = size(hunks);
  return {
    tier: "C",
    why,
    hunks: hunks.map((h) => ({
      file: h.file,
      newStart: h.newStart,
      newCount: h.newCount,
      reason: "full review",
    })),
    hunkBytes: bytes,
    diffBytes: bytes,
  };
}

/** A small seeded generator: the same seed gives the parent the same picks, and the worker never sees it. */
function seeded(seed: string): () => number {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507) ^ Math.imul(h ^ (h >>> 13), 3266489909);
    return ((h ^= h >>> 16) >>> 0) / 4294967296;
  };
}

function pick<T>(items: T[], count: number, random: () => number): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}

/**
 * Tier A unless a signal says the report cannot be relied on. Which criteria
 * are spot-checked, and which piece of evidence of each, is drawn with a seed
 * spot keeps from the worker, so it cannot know which claims will be read.
 */
export function guideFromSelfReview(
  report: SelfReview,
  signals: SelfReviewSignals,
  hunks: Hunk[],
  seed: string,
): ReviewGuide {
  if (signals.diffSha256Mismatch) return fullReview(hunks, "the self-review echoed a different diff hash");
  if (signals.fallbackRecommended) {
    return fullReview(hunks, "the self-review reports unmet or uncertain criteria or a P0-P2 finding");
  }
  const picked = new Map<string, { hunk: Hunk; reason: string }>();
  const take = (list: Hunk[], reason: string) =>
    list.forEach((h) => picked.has(key(h)) || picked.set(key(h), { hunk: h, reason }));
  const random = seeded(seed);
  const checked = pick(report.acceptanceEvidence, signals.spotCheckRequired, random);
  for (const criterion of checked) {
    const [e] = pick(criterion.evidence, 1, random);
    if (e) take(hunksAt(hunks, e.file, e.line), `spot-check: ${criterion.criterion.slice(0, 80)}`);
  }
  // A changed file no evidence mentions is where a worker could hide something: always read it.
  const mentioned = new Set(report.acceptanceEvidence.flatMap((c) => c.evidence.map((e) => e.file)));
  take(hunks.filter((h) => !mentioned.has(h.file)), "no evidence points at this file");
  const chosen = [...picked.values()];
  return {
    tier: "A",
    seed,
    why: `self-review is consistent; spot-check ${checked.length} criterion(s)`,
    hunks: chosen.map(({ hunk, reason }) => ({
      file: hunk.file,
      newStart: hunk.newStart,
      newCount: hunk.newCount,
      reason,
    })),
    hunkBytes: size(chosen.map((c) => c.hunk)),
    diffBytes: size(hunks),
  };
}
