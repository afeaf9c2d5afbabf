/**
 * A job an earlier landing left part way is finished, not refused. Before landings were all or nothing, `spot
 * job integrate` cherry-picked its builders onto the branch one at a time, so a later builder refused (its
 * checks had left `__pycache__/` in the checkout, say) stranded the job: the first builders on the branch, the
 * rest blocked, HEAD no longer the job's base. Such a job (or one whose builders were landed one by one with
 * `spot integrate`) is recognised here: HEAD is the job's base plus exactly its first builders' integrated
 * commits, in order, and nothing else. The landing then starts from HEAD with the builders not landed yet.
 */
import { gitText } from "../../git/git.ts";
import { isAncestor } from "../../git/land.ts";
import type { RunState } from "../../schemas/run_state.ts";
import type { SpotContext } from "../../store/context.ts";

export interface PriorLanding {
  /** The branch's HEAD: where the rest of the landing starts. */
  onto: string;
  /** The builders already on the branch, in order, with their commits. */
  landed: { task: string; runId: string; commit: string }[];
}

/** The part of the job already on the branch above `baseHead`, or null when HEAD holds anything else. */
export async function priorLanding(
  ctx: SpotContext,
  cwd: string,
  baseHead: string,
  builders: { task: string; runId: string }[],
): Promise<PriorLanding | null> {
  const head = await gitText(["rev-parse", "HEAD"], { cwd });
  if (head === baseHead || !(await isAncestor(cwd, baseHead, head))) return null;
  const chain = (await gitText(["rev-list", "--reverse", "--first-parent", `${baseHead}..${head}`], { cwd }))
    .split("\n").filter(Boolean);
  if (chain.length > builders.length) return null;
  const landed: PriorLanding["landed"] = [];
  for (const [i, commit] of chain.entries()) {
    const run = await ctx.store.load(builders[i].runId).catch(() => null);
    if (run?.status !== "integrated" || run.integratedCommit !== commit) return null;
    landed.push({ ...builders[i], commit });
  }
  return { onto: head, landed };
}

/** A builder's run whose approval stands though its own `spot integrate` was refused (it was committed). */
export function refusedAfterApproval(run: RunState): boolean {
  return run.status === "blocked" && run.implementationCommit !== null &&
    run.transitions.at(-1)?.from === "committed";
}
