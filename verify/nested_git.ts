/**
 * Finds `.git` entries below a worktree's root. Git itself skips them when it
 * builds a tree, so the diff alone would never show a planted repository (and
 * its hooks); a walk of the files does.
 */
import { join } from "../base/path.ts";
import { isDotGit } from "./path_rules.ts";

/** A worktree with more entries than this is refused rather than half-walked. */
export const MAX_WALK_ENTRIES = 500_000;

export interface NestedGitResult {
  found: string[];
  truncated: boolean;
}

export async function findNestedGit(root: string, limit = MAX_WALK_ENTRIES): Promise<NestedGitResult> {
  const found: string[] = [];
  let seen = 0;
  const stack: string[] = [""];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    for await (const entry of Deno.readDir(join(root, rel))) {
      if (++seen > limit) return { found, truncated: true };
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (isDotGit(entry.name)) {
        if (rel !== "") found.push(path);
        continue;
      }
      if (entry.isDirectory) stack.push(path);
    }
  }
  return { found: found.sort(), truncated: false };
}
