/**
 * `reviewBase`: a reviewer task that reviews work already in the checkout instead of a builder's. Two forms:
 *
 * - `REV` (a branch, a tag, a commit, `HEAD~2`): the checkout as the job took it (its uncommitted work
 *   included, per `includeUncommitted`) against the point where it left REV; `HEAD` reviews only the
 *   uncommitted work;
 * - `A..B`: the committed change from A to B, exactly (`git diff A B`).
 *
 * The reviewer's worktree is the reviewed side (the job's base, or B), read-only, and its patch is the diff.
 */
import { SpotError } from "../../errors.ts";
import { git, gitText } from "../../git/git.ts";
import type { JobBase } from "./base.ts";

/** The two sides of a `reviewBase` as written: `[rev]` or `[a, b]`. */
export function reviewBaseSides(spec: string): string[] {
  return spec.includes("..") ? spec.split("..") : [spec];
}

/** The commit a revision names in `cwd`, or null. */
export async function commitOf(cwd: string, rev: string): Promise<string | null> {
  // `--end-of-options` keeps a revision that looks like an option from being read as one.
  const r = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`], {
    cwd,
    allowFailure: true,
  });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

async function must(cwd: string, rev: string): Promise<string> {
  const commit = await commitOf(cwd, rev);
  if (commit) return commit;
  throw new SpotError("JOB_INVALID", `Cannot review "${rev}": it does not name a commit in ${cwd}`, {
    details: { revision: rev },
  });
}

export async function resolveReviewBase(
  cwd: string,
  spec: string,
  base: JobBase,
): Promise<{ from: string; to: string }> {
  const sides = reviewBaseSides(spec);
  if (sides.length === 2) return { from: await must(cwd, sides[0]), to: await must(cwd, sides[1]) };
  const rev = await must(cwd, sides[0]);
  const from = await gitText(["merge-base", rev, base.head], { cwd }).catch(() => "");
  if (!from) {
    throw new SpotError("JOB_INVALID", `Cannot review against "${spec}": it shares no history with HEAD`, {
      details: { revision: spec },
    });
  }
  return { from, to: base.commit };
}
