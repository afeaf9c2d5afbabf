/**
 * The spot check of tiers A and B: which of the hunks a self-review vouches for the parent reads. It draws
 * from distinct hunks, never from pieces of evidence: citing the honest fix ten times and the payload once
 * used to make the payload one draw in eleven. Now:
 *
 * 1. `count` hunks are drawn uniformly among the cited hunks not already shown, each at most once, so no
 *    pattern of citations can lower any hunk's chance below `count` in however many hunks are cited;
 * 2. when the citations are uneven, `count` more are drawn among the hunks cited fewer times than their
 *    share (citations / cited hunks), weighted by how far below it they are. Padding one hunk's citations
 *    therefore only adds reads of the others; an honest review that cites each hunk once draws no extra.
 *
 * The seed is spot's, never shown to the worker before the draw. Pure.
 */

/** How a hunk is cited by the criteria the draw trusts. */
export interface Cited {
  /** Pieces of evidence that cite it. */
  count: number;
  /** The criteria those pieces belong to, in report order. */
  criteria: string[];
}

export interface Drawn {
  key: string;
  reason: string;
}

/** Lets an exact share (4 / 2) not count as above a citation count of 2. */
const FLOAT_SLACK = 1e-9;

/** A small seeded generator: the same seed gives the parent the same picks, and the worker never sees it. */
export function seeded(seed: string): () => number {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507) ^ Math.imul(h ^ (h >>> 13), 3266489909);
    return ((h ^= h >>> 16) >>> 0) / 4294967296;
  };
}

/** `count` of `items` without repeats, each equally likely (a partial Fisher-Yates shuffle). */
function uniform<T>(items: T[], count: number, random: () => number): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}

/** `count` of `items` without repeats, item i more likely in proportion to `weights[i]` (Efraimidis-Spirakis). */
function weighted<T>(items: T[], weights: number[], count: number, random: () => number): T[] {
  return items
    .map((item, i) => ({ item, rank: Math.pow(random() || Number.MIN_VALUE, 1 / weights[i]) }))
    .sort((a, b) => b.rank - a.rank)
    .slice(0, count)
    .map((x) => x.item);
}

/** The hunks to read, by key, from the cited ones (`cited`, in diff order), leaving out those in `shown`. */
export function drawSpotCheck(
  cited: Map<string, Cited>,
  options: { count: number; shown: ReadonlySet<string>; seed: string },
): Drawn[] {
  const random = seeded(options.seed);
  const pool = [...cited.keys()].filter((k) => !options.shown.has(k));
  const names = (key: string) => cited.get(key)!.criteria.join("; ");
  const first = uniform(pool, options.count, random);
  const out: Drawn[] = first.map((key) => ({ key, reason: `spot-check: ${names(key)}` }));
  const total = [...cited.values()].reduce((n, c) => n + c.count, 0);
  const share = cited.size === 0 ? 0 : total / cited.size;
  const under = pool.filter((k) => !first.includes(k) && cited.get(k)!.count < share - FLOAT_SLACK);
  const deficits = under.map((k) => share - cited.get(k)!.count);
  for (const key of weighted(under, deficits, options.count, random)) {
    const { count } = cited.get(key)!;
    out.push({
      key,
      reason: `spot-check, cited ${count} of ${total} times where its share is ${
        Math.round(share * 10) / 10
      }: ${names(key)}`,
    });
  }
  return out;
}
