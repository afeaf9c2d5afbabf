/** `spot diff --id X [--hunks]`: the verified diff, whole or just the hunks the review guide asks for. */
import { SpotError } from "../errors.ts";
import type { ReviewGuide } from "../review/tiers.ts";
import type { SpotContext } from "../store/context.ts";
import { runHunks } from "../gates/review_guide.ts";

export async function diffRun(ctx: SpotContext, runId: string, options: { hunks?: boolean }) {
  const state = await ctx.store.load(runId);
  const all = await runHunks(ctx, runId);
  if (!state.diffSha256) {
    throw new SpotError(
      "STATE_INVALID",
      `Cannot show the diff of run "${runId}": it has not been verified yet`,
      {
        details: { nextCommand: `spot verify --id ${runId}` },
      },
    );
  }
  const guide = await ctx.store.readJson<ReviewGuide>(runId, "review-guide.json");
  const wanted = options.hunks && guide
    ? new Map(guide.hunks.map((h) => [`${h.file}:${h.newStart}`, h.reason]))
    : null;
  const hunks = all
    .filter((h) => !wanted || wanted.has(`${h.file}:${h.newStart}`))
    .map((h) => ({
      file: h.file,
      newStart: h.newStart,
      newCount: h.newCount,
      reason: wanted?.get(`${h.file}:${h.newStart}`) ?? null,
      text: h.text,
    }));
  return {
    runId,
    diffSha256: state.diffSha256,
    tier: guide?.tier ?? "C",
    why: guide?.why ?? null,
    count: hunks.length,
    hunks,
  };
}
