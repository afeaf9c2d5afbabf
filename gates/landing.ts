/**
 * A landing built and checked before anything of the user's changes: in a scratch tree at the commit the work
 * lands on, each approved commit is cherry-picked in order and its own checks run on the result so far; then
 * the final checks (a job's `integratedChecks`) run on the whole. The commits made there are the ones the
 * user's branch is then fast-forwarded to (git/land.ts), so what was checked is exactly what lands.
 */
import type { Identity } from "../git/git.ts";
import { pickOnto, resetTree } from "../git/land.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import type { SpotContext } from "../store/context.ts";
import { type ChecksResult, runChecks } from "./checks.ts";
import { withScratchTree } from "./scratch_tree.ts";

export interface LandingPick {
  /** What the commit is, for messages: a run id or a job's task id. */
  label: string;
  /** The run whose commit it is; its checks run with that run's settings. */
  runId: string;
  commit: string;
  identity: Identity;
  /** The checks to run once it is picked (its contract's), or null for none. */
  checks: ResolvedContract | null;
}

export interface LandingPlan {
  repo: string;
  /** The commit the landing starts from (the user's HEAD, or a job's base). */
  onto: string;
  picks: LandingPick[];
  /** Checks run after the last pick, with `runId`'s settings (a job's integratedChecks). */
  final?: { label: string; runId: string; contract: ResolvedContract };
  /** The run whose ignored files and dependency dirs the scratch tree gets. */
  furnish: RunState;
  /** Names the scratch tree's directory. */
  treeLabel: string;
}

export interface CheckedStep {
  label: string;
  runId: string;
  /** The commit the checks ran on. */
  commit: string;
  checks: ChecksResult;
}

export type LandingOutcome =
  | {
    ok: true;
    tip: string;
    commits: { label: string; runId: string; commit: string }[];
    steps: CheckedStep[];
  }
  | {
    ok: false;
    /** `pick`: the commit does not apply; `checks`: its checks (or the final ones) failed on the result. */
    stage: "pick" | "checks";
    label: string;
    runId: string;
    reason: string;
    steps: CheckedStep[];
  };

/** The longest a landing's checks can take: each check's own timeout, and a margin per step for git. */
export function landingBudgetMs(plan: LandingPlan): number {
  const contracts = [...plan.picks.map((p) => p.checks), plan.final?.contract ?? null];
  const seconds = contracts.reduce(
    (sum, c) => sum + 30 + (c?.verification ?? []).reduce((s, v) => s + v.timeoutSeconds, 0),
    0,
  );
  return seconds * 1000;
}

export function buildLanding(ctx: SpotContext, plan: LandingPlan): Promise<LandingOutcome> {
  return withScratchTree(ctx, {
    repo: plan.repo,
    commit: plan.onto,
    furnish: plan.furnish,
    label: plan.treeLabel,
  }, async (tree) => {
    const commits: { label: string; runId: string; commit: string }[] = [];
    const steps: CheckedStep[] = [];
    let tip = plan.onto;
    const failed = (stage: "pick" | "checks", p: { label: string; runId: string }, reason: string) => ({
      ok: false as const,
      stage,
      label: p.label,
      runId: p.runId,
      reason,
      steps,
    });
    const check = async (p: { label: string; runId: string }, contract: ResolvedContract, more: boolean) => {
      const checks = await runChecks(ctx, p.runId, contract, tree.path);
      steps.push({ label: p.label, runId: p.runId, commit: tip, checks });
      // The next step starts from the commit, not from what the checks left in the tree.
      if (more) await resetTree(tree, tip);
      return checks;
    };
    for (const [i, p] of plan.picks.entries()) {
      const picked = await pickOnto(tree, p.commit, p.identity);
      if (!picked.ok) {
        return failed("pick", p, `cherry-pick of ${p.commit.slice(0, 12)} failed: ${picked.reason}`);
      }
      // Recorded now: whatever a check does to the tree's HEAD later, this is the commit that lands.
      tip = picked.commit;
      commits.push({ label: p.label, runId: p.runId, commit: tip });
      const more = i + 1 < plan.picks.length || plan.final !== undefined;
      if (p.checks && !(await check(p, p.checks, more)).passed) {
        return failed("checks", p, `its checks failed on the landed result (commit ${tip.slice(0, 12)})`);
      }
    }
    if (plan.final && !(await check(plan.final, plan.final.contract, false)).passed) {
      return failed("checks", plan.final, `they failed on the landed result (commit ${tip.slice(0, 12)})`);
    }
    return { ok: true as const, tip, commits, steps };
  });
}
