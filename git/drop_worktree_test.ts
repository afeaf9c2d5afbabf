import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, sh } from "../tests/helpers.ts";
import { git } from "./git.ts";
import { dropWorktree } from "./worktree.ts";

const listed = async (repo: string) =>
  (await git(["worktree", "list", "--porcelain"], { cwd: repo })).stdout.split("\n")
    .filter((l) => l.startsWith("worktree ")).length;

Deno.test("dropWorktree removes a detached worktree and its entry", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const repo = await makeRepo({ "a.txt": "a\n" }, dir);
    const path = join(dir, "pristine");
    await sh(repo, "git", "worktree", "add", "--quiet", "--detach", path, "HEAD");
    assert.equal(await listed(repo), 2);
    await dropWorktree(repo, path);
    assert.equal(await Deno.stat(path).then(() => true, () => false), false);
    assert.equal(await listed(repo), 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("dropWorktree prunes the entry of a worktree git cannot remove", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const repo = await makeRepo({ "a.txt": "a\n" }, dir);
    const path = join(dir, "pristine");
    await sh(repo, "git", "worktree", "add", "--quiet", "--detach", path, "HEAD");
    // A tree whose link to the repository is gone (what a kill -9 mid-cleanup can leave): `worktree remove`
    // refuses it, so only the prune takes its entry.
    await Deno.remove(join(path, ".git"));
    assert.notEqual(
      (await git(["worktree", "remove", "--force", path], { cwd: repo, allowFailure: true })).exitCode,
      0,
    );
    assert.equal(await listed(repo), 2);
    await dropWorktree(repo, path);
    assert.equal(await listed(repo), 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
