import assert from "node:assert/strict";
import { join } from "node:path";
import { findNestedGit } from "./nested_git.ts";

Deno.test("findNestedGit() finds a planted repository below the root, in any spelling, but not the root's own .git", async () => {
  const root = await Deno.makeTempDir();
  await Deno.writeTextFile(join(root, ".git"), "gitdir: /elsewhere\n");
  await Deno.mkdir(join(root, "src"), { recursive: true });
  await Deno.writeTextFile(join(root, "src", "a.ts"), "");
  assert.deepEqual(await findNestedGit(root), { found: [], truncated: false });
  await Deno.mkdir(join(root, "vendor", "lib", ".git", "hooks"), { recursive: true });
  await Deno.mkdir(join(root, "deep", ".GIT"), { recursive: true });
  assert.deepEqual((await findNestedGit(root)).found, ["deep/.GIT", "vendor/lib/.git"]);
  assert.equal((await findNestedGit(root, 2)).truncated, true);
  await Deno.remove(root, { recursive: true });
});
