/**
 * `git worktree add` reads every other worktree's admin dir, so two adds at once in one repository race ("fatal:
 * failed to read .git/worktrees/<other>/commondir"): parallel prepares, a job's parallel builders, a verify's
 * pristine tree beside another run's prepare. spot serializes its own worktree adds and removes per repository
 * with a lock file in the repository's common git dir, which the kernel releases if spot dies.
 */
import { join } from "../base/path.ts";
import { gitCommonDir } from "./repo.ts";

/** Runs `fn` holding the repository's worktree lock (waiting for it). */
export async function withWorktreeLock<T>(cwd: string, fn: () => Promise<T>): Promise<T> {
  const common = await gitCommonDir(cwd);
  const file = await Deno.open(join(common, "spot-worktree.lock"), {
    read: true,
    write: true,
    create: true,
    mode: 0o600,
  });
  try {
    await file.lock(true);
    return await fn();
  } finally {
    file.close();
  }
}
