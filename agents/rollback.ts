/**
 * After a provider wall, an aborted agent's partial work is rolled back, but
 * only in a worktree spot created for its run (under spot's worktrees
 * directory, with the git dir spot recorded): a directory the user named is
 * never touched.
 */
import { relative } from "../base/path.ts";
import { rollbackWorktree } from "../git/worktree.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { readJsonFile } from "../store/files.ts";

export async function rollbackAgentRun(ctx: SpotContext, runId: string): Promise<string | null> {
  const state = await readJsonFile<RunState>(ctx.store.file(runId, "state.json")).catch(() => null);
  if (!state?.worktreePath || !state.worktreeGitDir || !state.workerBaseRevision) return null;
  const rel = relative(ctx.paths.worktreesDir, state.worktreePath);
  if (rel === "" || rel.startsWith("..")) return null;
  await rollbackWorktree(
    { path: state.worktreePath, gitDir: state.worktreeGitDir },
    state.workerBaseRevision,
  );
  return state.worktreePath;
}
