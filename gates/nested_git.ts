/** The first gate of verify: a nested repository in the worktree blocks the run (SECURITY_BLOCKED). */
import { blockRun } from "../lifecycle/block.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { findNestedGit } from "../verify/nested_git.ts";

/** Git skips nested .git directories when it builds a tree, so they are looked for on disk. */
export async function refuseNestedGit(ctx: SpotContext, state: RunState): Promise<void> {
  const nested = await findNestedGit(state.worktreePath);
  if (nested.found.length === 0 && !nested.truncated) return;
  const issues = nested.found.map((file) => ({
    code: "NESTED_GIT",
    file,
    message: `A nested git directory "${file}" was planted in the worktree`,
  }));
  if (nested.truncated) {
    issues.push({
      code: "NESTED_GIT",
      file: ".",
      message: "The worktree has too many files to check for nested git directories",
    });
  }
  await ctx.store.writeJson(state.runId, "verification.json", {
    schemaVersion: 1,
    runId: state.runId,
    passed: false,
    security: { passed: false, issues },
    commands: [],
    at: ctx.now(),
  });
  await blockRun(ctx, state, "SECURITY_BLOCKED", issues[0].message, { issues });
}
