import assert from "node:assert/strict";
import { join } from "../base/path.ts";
import { makeRepo, sh } from "../tests/helpers.ts";
import { SpotError } from "../errors.ts";
import {
  branchOfFullName,
  currentBranch,
  gitCommonDir,
  headAndBranch,
  headCommit,
  toplevel,
  toplevelAndHead,
  userIdentity,
} from "./repo.ts";
import { listTree } from "./tree_list.ts";
import { runsInSpotsGroup } from "./git.ts";

Deno.test("headAndBranch() answers as headCommit() and currentBranch() do, on a branch and detached", async () => {
  const repo = await makeRepo({ "a.txt": "a\n" });
  try {
    const separate = async () => ({ head: await headCommit(repo), branch: await currentBranch(repo) });
    assert.deepEqual(await headAndBranch(repo), await separate());
    assert.equal((await headAndBranch(repo)).branch, "main");
    await sh(repo, "git", "checkout", "-q", "-b", "feature/x");
    assert.deepEqual(await headAndBranch(repo), { ...(await separate()), branch: "feature/x" });
    await sh(repo, "git", "checkout", "-q", "--detach");
    assert.deepEqual(await headAndBranch(repo), await separate());
    assert.equal((await headAndBranch(repo)).branch, null);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("headAndBranch() on an unborn HEAD fails as headCommit() does", async () => {
  const repo = await Deno.makeTempDir();
  try {
    await sh(repo, "git", "init", "-q", "-b", "main");
    await assert.rejects(() => headAndBranch(repo), (e) => e instanceof SpotError && e.code === "GIT_FAILED");
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("branchOfFullName() strips refs/heads/ and reads HEAD as detached", () => {
  assert.equal(branchOfFullName("refs/heads/main"), "main");
  assert.equal(branchOfFullName("refs/heads/heads/x"), "heads/x");
  assert.equal(branchOfFullName("HEAD"), null);
});

Deno.test("toplevelAndHead() answers from a subdirectory, and outside a repository says NOT_A_REPOSITORY", async () => {
  const repo = await makeRepo({ "src/a.txt": "a\n" });
  const outside = await Deno.makeTempDir();
  try {
    const real = await Deno.realPath(repo);
    assert.deepEqual(await toplevelAndHead(join(repo, "src")), {
      root: await toplevel(join(repo, "src")),
      head: await headCommit(repo),
    });
    assert.equal((await toplevelAndHead(repo)).root, real);
    await assert.rejects(
      () => toplevelAndHead(outside),
      (e) => e instanceof SpotError && e.code === "NOT_A_REPOSITORY",
    );
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("userIdentity() reads user.name and user.email in one call, the last value of a key winning", async () => {
  const repo = await makeRepo({ "a.txt": "a\n" });
  try {
    await sh(repo, "git", "config", "--add", "user.name", "Later Name");
    const id = await userIdentity(repo);
    // The environment of the test runner may name an author; the repository's config answers otherwise.
    assert.equal(id.name, Deno.env.get("GIT_AUTHOR_NAME") ?? "Later Name");
    assert.equal(id.email, Deno.env.get("GIT_AUTHOR_EMAIL") ?? "test@example.invalid");
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("gitCommonDir() asks again when the directory it knew is gone", async () => {
  const repo = await makeRepo({ "a.txt": "a\n" });
  const moved = `${repo}-moved`;
  try {
    const real = await Deno.realPath(repo);
    assert.equal(await gitCommonDir(repo), join(real, ".git"));
    // The same path becomes a linked worktree of another repository: the old answer's dir is gone.
    await Deno.rename(repo, moved);
    await sh(moved, "git", "worktree", "add", "-q", "--detach", repo);
    assert.equal(await gitCommonDir(repo), join(await Deno.realPath(moved), ".git"));
  } finally {
    await Deno.remove(repo, { recursive: true }).catch(() => {});
    await Deno.remove(moved, { recursive: true });
  }
});

Deno.test("listTree() hands each caller its own copy of a listing it remembers", async () => {
  const repo = await makeRepo({ "a.txt": "a\n", "b/c.txt": "c\n" });
  try {
    const head = await headCommit(repo);
    const first = await listTree(repo, head);
    first.delete("a.txt");
    const second = await listTree(repo, head);
    assert.deepEqual([...second.keys()].sort(), ["a.txt", "b/c.txt"]);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("runsInSpotsGroup(): reads share spot's group; what moves refs or a checkout keeps a group of its own", () => {
  for (
    const args of [["rev-parse", "HEAD"], ["status"], ["diff", "HEAD"], ["config", "--get", "user.name"]]
  ) {
    assert.equal(runsInSpotsGroup(args, { cwd: "." }), true, args.join(" "));
  }
  for (
    const args of [
      ["cherry-pick", "x"],
      ["worktree", "add"],
      ["update-ref", "refs/heads/x", "y"],
      ["reset", "--hard"],
      ["config", "user.name", "x"],
      ["add", "--all"],
      ["read-tree", "x"],
    ]
  ) {
    assert.equal(runsInSpotsGroup(args, { cwd: "." }), false, args.join(" "));
  }
  assert.equal(runsInSpotsGroup(["add", "--all"], { cwd: ".", indexFile: "/tmp/i" }), true);
});
