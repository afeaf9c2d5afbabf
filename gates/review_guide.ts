/** Writes `review-guide.json`: the tier and the hunks a parent reads (`spot diff --id X --hunks` prints them). */
import { fullReview, type ReviewGuide } from "../review/tiers.ts";
import { type Hunk, splitHunks } from "../verify/hunks.ts";
import type { SpotContext } from "../store/context.ts";

export async function runHunks(ctx: SpotContext, runId: string): Promise<Hunk[]> {
  const diff = await Deno.readTextFile(ctx.store.file(runId, "diff.patch")).catch(() => "");
  return splitHunks(diff);
}

/** Stamped with the verified diff's hash, so a guide left from an earlier round is never applied to a new diff. */
export async function writeGuide(ctx: SpotContext, runId: string, guide: ReviewGuide) {
  const { diffSha256 } = await ctx.store.load(runId);
  const file = await ctx.store.writeJson(runId, "review-guide.json", { ...guide, diffSha256 });
  return {
    reviewTier: guide.tier,
    reviewWhy: guide.why,
    hunksToRead: guide.hunks.length,
    hunksCovered: guide.covered.length,
    reviewGuideFile: file,
  };
}

export async function writeFullGuide(ctx: SpotContext, runId: string, why: string) {
  return await writeGuide(ctx, runId, fullReview(await runHunks(ctx, runId), why));
}
