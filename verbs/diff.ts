/** `spot diff --id X [--hunks]`: the verified diff, whole or just the hunks the review guide asks for. */
import { SpotError } from "../errors.ts";
import { digestSelfReview } from "../review/digest.ts";
import type { ReviewGuide } from "../review/tiers.ts";
import type { SelfReview } from "../schemas/self_review.ts";
import type { SpotContext } from "../store/context.ts";
import { assertSpotRun } from "../store/run_store.ts";
import { runHunks } from "../gates/review_guide.ts";
import { endedHint } from "../lifecycle/ended.ts";
import type { RunState } from "../schemas/run_state.ts";
import { nextCommand } from "../lifecycle/next_command.ts";

const encoder = new TextEncoder();

/** No verified diff: verify makes one, unless the run ended first (then verify cannot run on it). */
function unverified(ctx: SpotContext, state: RunState): SpotError {
  const runId = state.runId;
  const ended = endedHint(state);
  if (!ended) {
    // diff takes no lock: a running or revising run may have its turn under way, so nothing is offered there.
    const busy = state.status === "running" || state.status === "revising";
    const command = busy ? null : nextCommand(state.status, runId);
    const next = command ? { nextCommand: command } : {};
    return new SpotError(
      "STATE_INVALID",
      `Cannot show the diff of run "${runId}": it has not been verified yet (it is ${state.status})`,
      { details: { runId, status: state.status, ...next } },
    );
  }
  const saved = ctx.store.file(runId, "diff.patch");
  return new SpotError(
    "STATE_INVALID",
    `Cannot show the diff of run "${runId}": ${ended.said} before it was verified, so it has no verified diff; what its worktree held is kept in ${saved}`,
    {
      details: {
        runId,
        status: state.status,
        ended: true,
        diffFile: saved,
        hint: `what still works on it: ${ended.commands.join(", ")}`,
        commands: ended.commands,
      },
    },
  );
}

export async function diffRun(ctx: SpotContext, runId: string, options: { hunks?: boolean }) {
  const state = await ctx.store.load(runId);
  // The original wrote no diff.patch: an empty list would read as an empty diff.
  assertSpotRun(state, "show the diff of");
  const all = await runHunks(ctx, runId);
  if (!state.diffSha256) throw unverified(ctx, state);
  const stored = await ctx.store.readJson<ReviewGuide>(runId, "review-guide.json");
  // A guide from an earlier round (the worker revised, self-review has not run yet) says nothing of this diff.
  const guide = stored?.diffSha256 === state.diffSha256 ? stored : null;
  const key = (h: { file: string; newStart: number }) => `${h.file}:${h.newStart}`;
  const wanted = options.hunks && guide ? new Map(guide.hunks.map((h) => [key(h), h.reason])) : null;
  const covered = wanted ? guide!.covered : [];
  const vouched = new Set(covered.map(key));
  const hunks = all
    // A hunk the guide neither reads nor vouches for is printed: the coverage rule holds even on a bad guide.
    .filter((h) => !wanted || wanted.has(key(h)) || !vouched.has(key(h)))
    .map((h) => ({
      file: h.file,
      newStart: h.newStart,
      newCount: h.newCount,
      reason: wanted ? wanted.get(key(h)) ?? "not in the review guide" : null,
      text: h.text,
    }));
  // At tiers A and B the parent reads this output, not self-review.json: the map, then the code.
  const report = wanted && guide!.tier !== "C"
    ? await ctx.store.readJson<SelfReview>(runId, "self-review.json")
    : null;
  return {
    runId,
    diffSha256: state.diffSha256,
    tier: guide?.tier ?? "C",
    why: guide?.why ?? (stored ? "the review guide was made for an earlier diff: read it all" : null),
    count: hunks.length,
    /** Bytes of the hunk text printed here, next to the whole diff's. */
    readBytes: hunks.reduce((n, h) => n + encoder.encode(h.text).length, 0),
    diffBytes: all.reduce((n, h) => n + encoder.encode(h.text).length, 0),
    ...(report ? { selfReview: digestSelfReview(report) } : {}),
    hunks,
    /**
     * Hunks not printed, each cited by a criterion of the digest (review-guide.json lists which); any can
     * be read by hand with `spot diff --id X`.
     */
    coveredHunks: covered.length,
  };
}
