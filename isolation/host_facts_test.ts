import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, sh } from "../tests/helpers.ts";
import { gitLayout } from "./host_facts.ts";

Deno.test("gitLayout() finds a linked worktree's .git file, its git dir and the common dir behind it", async () => {
  const root = await Deno.makeTempDir({ prefix: "spot-gitlayout-" });
  try {
    const repo = await Deno.realPath(await makeRepo({ "a.txt": "a\n" }, root));
    const wt = join(root, "wt");
    await sh(repo, "git", "worktree", "add", "-q", "-b", "w", wt);
    const layout = gitLayout(wt);
    assert.equal(layout.dotGit, join(wt, ".git"));
    assert.deepEqual(layout.gitDirs, [join(repo, ".git"), join(repo, ".git", "worktrees", "wt")]);
    assert.deepEqual(gitLayout(repo), { dotGit: join(repo, ".git"), gitDirs: [] });
    assert.deepEqual(gitLayout(root), { dotGit: null, gitDirs: [] });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
