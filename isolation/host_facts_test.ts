import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, sh } from "../tests/helpers.ts";
import { cwdFacts, gitLayout } from "./host_facts.ts";

const IDENTITY = { name: "spot worker", email: "worker@spot.invalid" };

Deno.test("gitLayout() finds a linked worktree's .git file, its git dir and the common dir behind it", async () => {
  const root = await Deno.makeTempDir({ prefix: "spot-gitlayout-" });
  try {
    const repo = await Deno.realPath(await makeRepo({ "a.txt": "a\n" }, root));
    const wt = join(root, "wt");
    await sh(repo, "git", "worktree", "add", "-q", "-b", "w", wt);
    assert.deepEqual(gitLayout(wt), {
      dotGit: join(wt, ".git"),
      gitDir: join(repo, ".git", "worktrees", "wt"),
      commonDir: join(repo, ".git"),
    });
    const main = join(repo, ".git");
    assert.deepEqual(gitLayout(repo), { dotGit: main, gitDir: main, commonDir: main });
    assert.equal(gitLayout(root), null);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cwdFacts() shows a worktree its own git dir and the objects, with spot's config, not the parent's", async () => {
  const root = await Deno.makeTempDir({ prefix: "spot-gitview-" });
  try {
    const repo = await Deno.realPath(await makeRepo({ "a.txt": "a\n" }, root));
    await sh(repo, "git", "config", "http.https://example.com/.extraheader", "AUTHORIZATION: basic c2VjcmV0");
    await sh(repo, "git", "config", "core.ignorecase", "true");
    const wt = join(root, "wt");
    await sh(repo, "git", "worktree", "add", "-q", "-b", "spot/w", wt);
    const viewDir = join(root, "view");
    const facts = await cwdFacts(wt, { lockedFiles: ["a.txt"], viewDir, identity: IDENTITY });
    const common = join(repo, ".git");
    assert.equal(facts.dotGit, join(wt, ".git"));
    assert.deepEqual(facts.locked, [join(wt, "a.txt")]);
    assert.deepEqual(facts.gitView?.binds, [
      { from: viewDir, to: common },
      { from: join(common, "objects"), to: join(common, "objects") },
      { from: join(common, "worktrees", "wt"), to: join(common, "worktrees", "wt") },
    ]);
    assert.deepEqual(facts.gitView?.grants, {
      readOnly: [viewDir, join(common, "objects"), join(common, "worktrees", "wt"), join(common, "refs")],
      env: { GIT_COMMON_DIR: viewDir, GIT_OBJECT_DIRECTORY: join(common, "objects") },
    });
    const config = await Deno.readTextFile(join(viewDir, "config"));
    assert.doesNotMatch(config, /extraheader|c2VjcmV0|http/);
    assert.match(config, /ignorecase = true/);
    assert.match(config, /name = "spot worker"/);
    const head = await Deno.readTextFile(join(viewDir, "HEAD"));
    assert.equal(head.trim(), "ref: refs/heads/spot/w");
    const commit = (await sh(repo, "git", "rev-parse", "spot/w")).trim();
    assert.equal((await Deno.readTextFile(join(viewDir, "refs", "heads", "spot", "w"))).trim(), commit);
    assert.ok((await Deno.stat(join(viewDir, "worktrees", "wt"))).isDirectory, "the mount point exists");
    const names = [...Deno.readDirSync(viewDir)].map((e) => e.name).sort();
    assert.deepEqual(names, ["HEAD", "config", "objects", "refs", "worktrees"]);

    const mainView = join(root, "main-view");
    const main = await cwdFacts(repo, { lockedFiles: [], viewDir: mainView, identity: IDENTITY });
    assert.equal(main.dotGit, null, "a .git dir is covered by the view, not bound whole");
    assert.deepEqual(main.gitView?.binds.map((b) => b.to), [
      common,
      join(common, "objects"),
      join(common, "index"),
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
