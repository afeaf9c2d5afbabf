/**
 * When the result `integrate` would land is, byte for byte, the tree `verify` already checked, with the same
 * checks: the approved commit's parent is the commit it lands on (the source has not moved since prepare,
 * which integrate requires of a single run), its tree is the one verification.json names as checked and
 * passed, and the checks and the config's env allowlist are those verify ran with. Then checking it again in a
 * scratch tree would run the same commands on the same bytes: integrate fast-forwards to the approved commit
 * itself and records that verify's result stands (docs/performance.md). Anything else (the source moved, a
 * job's dependency commits under it, the contract's checks edited since, a verification that did not pass or
 * names no tree) is checked in a scratch tree as before.
 */
import { gitText } from "../git/git.ts";
import { sha256Hex } from "../git/hash.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import type { SpotContext } from "../store/context.ts";

/** What the checks' outcome depends on besides the tree: the commands, and the env names they may take. */
export function checksDigest(ctx: SpotContext, task: ResolvedContract): Promise<string> {
  return sha256Hex(JSON.stringify({
    verification: task.verification,
    envAllowlist: ctx.config.verificationEnvAllowlist,
  }));
}

interface Recorded {
  passed?: boolean;
  tree?: string;
  checksDigest?: string;
  diffSha256?: string;
}

export interface LandedAsVerified {
  /** The tree that lands, the one verify checked. */
  tree: string;
  /** When verify ran its checks on it. */
  verifiedAt: string | null;
}

/** Whether the approved commit, landed on `onto`, is what verify checked; null when it must be checked again. */
export async function landedAsVerified(
  ctx: SpotContext,
  state: RunState,
  task: ResolvedContract,
  onto: string,
): Promise<LandedAsVerified | null> {
  const commit = state.implementationCommit;
  if (!commit) return null;
  const recorded = await ctx.store.readJson<Recorded & { at?: string }>(state.runId, "verification.json")
    .catch(() => null);
  if (!recorded?.passed || !recorded.tree || !recorded.checksDigest) return null;
  if (recorded.diffSha256 !== state.diffSha256) return null;
  if (recorded.checksDigest !== await checksDigest(ctx, task)) return null;
  const [tree, parents] =
    (await gitText(["log", "-1", "--format=%T%x00%P", commit], { cwd: state.sourceRoot }))
      .split("\0");
  if (parents !== onto || tree !== recorded.tree) return null;
  return { tree, verifiedAt: recorded.at ?? null };
}
