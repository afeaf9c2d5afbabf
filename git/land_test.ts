import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, sh } from "../tests/helpers.ts";
import { changedPaths, fastForward, pickOnto, restorePaths } from "./land.ts";
import { gitText } from "./git.ts";

const ME = { name: "Test", email: "test@example.invalid" };

async function withRepo(fn: (repo: string, dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "spot-land-" });
  try {
    await fn(await makeRepo({ "a.txt": "a\n", "b.txt": "b\n", "gone.txt": "x\n" }, dir), dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A commit on top of HEAD (HEAD itself unmoved): a.txt edited, c.txt added, gone.txt deleted. */
async function descendant(repo: string): Promise<string> {
  await sh(repo, "git", "checkout", "-q", "-b", "work");
  await Deno.writeTextFile(join(repo, "a.txt"), "A\n");
  await Deno.writeTextFile(join(repo, "c.txt"), "c\n");
  await sh(repo, "git", "rm", "-q", "gone.txt");
  await sh(repo, "git", "add", "-A");
  await sh(repo, "git", "commit", "-q", "-m", "work");
  const tip = await sh(repo, "git", "rev-parse", "HEAD");
  await sh(repo, "git", "checkout", "-q", "main");
  return tip;
}

Deno.test("fastForward() moves the branch and checkout to the commit, keeping an unrelated uncommitted edit", async () => {
  await withRepo(async (repo) => {
    const from = await sh(repo, "git", "rev-parse", "HEAD");
    const to = await descendant(repo);
    await Deno.writeTextFile(join(repo, "b.txt"), "the user's edit\n");
    assert.deepEqual(await fastForward(repo, { from, to }), { ok: true });
    assert.equal(await sh(repo, "git", "rev-parse", "refs/heads/main"), to);
    assert.equal(await Deno.readTextFile(join(repo, "c.txt")), "c\n");
    assert.equal(await Deno.readTextFile(join(repo, "b.txt")), "the user's edit\n");
  });
});

Deno.test("fastForward() refuses, changing nothing, when HEAD moved or a path it changes is not clean", async () => {
  await withRepo(async (repo) => {
    const from = await sh(repo, "git", "rev-parse", "HEAD");
    const to = await descendant(repo);
    await Deno.writeTextFile(join(repo, "c.txt"), "the user's own c\n");
    const dirty = await fastForward(repo, { from, to });
    assert.ok(!dirty.ok && /changes in c\.txt/.test(dirty.reason), JSON.stringify(dirty));
    assert.equal(await sh(repo, "git", "rev-parse", "HEAD"), from);
    assert.equal(await Deno.readTextFile(join(repo, "c.txt")), "the user's own c\n");
    await Deno.remove(join(repo, "c.txt"));
    await sh(repo, "git", "commit", "-q", "--allow-empty", "-m", "moved");
    const moved = await fastForward(repo, { from, to });
    assert.ok(!moved.ok && /HEAD is/.test(moved.reason));
  });
});

Deno.test("restorePaths() puts every path a landing changes back as the start commit has it", async () => {
  await withRepo(async (repo) => {
    const from = await sh(repo, "git", "rev-parse", "HEAD");
    const to = await descendant(repo);
    assert.deepEqual((await changedPaths(repo, from, to)).map((c) => `${c.status} ${c.path}`), [
      "M a.txt",
      "A c.txt",
      "D gone.txt",
    ]);
    // A landing interrupted after it wrote the files and the index, before the branch moved.
    await sh(repo, "git", "read-tree", "-m", "-u", from, to);
    assert.equal(await Deno.readTextFile(join(repo, "a.txt")), "A\n");
    await restorePaths(repo, { from, to });
    assert.equal(await sh(repo, "git", "status", "--porcelain", "--untracked-files=all"), "");
    assert.equal(await Deno.readTextFile(join(repo, "gone.txt")), "x\n");
  });
});

Deno.test("pickOnto() cherry-picks into the tree it is given; a conflict is aborted, its files named", async () => {
  await withRepo(async (repo, dir) => {
    const to = await descendant(repo);
    const tree = join(dir, "scratch");
    await sh(repo, "git", "worktree", "add", "-q", "--detach", tree, "main");
    const ref = { path: tree, gitDir: await gitText(["rev-parse", "--absolute-git-dir"], { cwd: tree }) };
    const picked = await pickOnto(ref, to, ME);
    assert.ok(picked.ok);
    assert.equal(
      await gitText(["rev-parse", "HEAD^"], { cwd: tree }),
      await sh(repo, "git", "rev-parse", "main"),
    );
    // The same change again, onto a tree where a.txt already differs: a conflict.
    await sh(tree, "git", "reset", "-q", "--hard", "main");
    await Deno.writeTextFile(join(tree, "a.txt"), "other\n");
    await sh(tree, "git", "commit", "-q", "-am", "other");
    const conflict = await pickOnto(ref, to, ME);
    assert.ok(!conflict.ok);
    assert.deepEqual(conflict.files, ["a.txt"]);
    assert.equal(await sh(tree, "git", "status", "--porcelain"), "", "the pick was not aborted");
  });
});
