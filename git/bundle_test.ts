import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, sh } from "../tests/helpers.ts";
import {
  checkoutTreeAsChanges,
  hasCommit,
  objectsDir,
  readBundleHeader,
  rootCommit,
  unbundle,
  writeBundle,
} from "./bundle.ts";

Deno.test("bundles: an incremental bundle needs its prerequisite, and together they carry the commit", async () => {
  const repo = await makeRepo({ "a.txt": "1\n" });
  const first = await sh(repo, "git", "rev-parse", "HEAD");
  await Deno.writeTextFile(join(repo, "b.txt"), "2\n");
  await sh(repo, "git", "add", "-A");
  await sh(repo, "git", "commit", "-qm", "second");
  const second = await sh(repo, "git", "rev-parse", "HEAD");
  const scratch = await Deno.makeTempDir();
  const refsBefore = await sh(repo, "git", "for-each-ref");
  const objects = [await objectsDir(repo)];
  await writeBundle(join(scratch, "full"), { objects, commit: first, scratch });
  await writeBundle(join(scratch, "incr"), { objects, commit: second, have: [first], scratch });
  assert.equal(await sh(repo, "git", "for-each-ref"), refsBefore, "writing a bundle made a ref");
  assert.deepEqual(await readBundleHeader(join(scratch, "incr")), {
    prerequisites: [first],
    heads: [second],
  });
  assert.deepEqual((await readBundleHeader(join(scratch, "full"))).prerequisites, []);
  assert.equal(await rootCommit(repo, second), first);

  const other = await Deno.makeTempDir();
  await sh(other, "git", "init", "-q", "--bare");
  await assert.rejects(unbundle(other, join(scratch, "incr")));
  await unbundle(other, join(scratch, "full"));
  assert.equal(await hasCommit(other, second), false);
  await unbundle(other, join(scratch, "incr"));
  assert.equal(await hasCommit(other, second), true);
  assert.equal(await sh(other, "git", "for-each-ref"), "", "unbundling made a ref");
});

Deno.test("bundles: a tree checked out as changes leaves HEAD and the index at the base", async () => {
  const repo = await makeRepo({ "a.txt": "1\n", "gone.txt": "x\n" });
  const base = await sh(repo, "git", "rev-parse", "HEAD");
  await Deno.writeTextFile(join(repo, "a.txt"), "2\n");
  await Deno.writeTextFile(join(repo, "new.txt"), "n\n");
  await Deno.remove(join(repo, "gone.txt"));
  await sh(repo, "git", "add", "-A");
  const tree = await sh(repo, "git", "write-tree");
  await sh(repo, "git", "reset", "-q", "--hard", base);
  const wt = join(await Deno.makeTempDir(), "wt");
  await sh(repo, "git", "worktree", "add", "-q", "--detach", wt, base);
  const gitDir = await sh(wt, "git", "rev-parse", "--absolute-git-dir");
  await checkoutTreeAsChanges({ path: wt, gitDir }, tree);
  assert.equal(await sh(wt, "git", "rev-parse", "HEAD"), base);
  assert.equal(await Deno.readTextFile(join(wt, "a.txt")), "2\n");
  assert.equal(await sh(wt, "git", "status", "--porcelain"), " M a.txt\n D gone.txt\n?? new.txt".trim());
});
