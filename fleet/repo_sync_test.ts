import assert from "node:assert/strict";
import { join } from "node:path";
import { git } from "../git/git.ts";
import { repoStore } from "./repo_sync.ts";

Deno.test("repoStore: attempts starting at once all get a whole store (none sees it half made)", async () => {
  for (let round = 0; round < 5; round++) {
    const cache = await Deno.makeTempDir();
    try {
      const stores = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const store = await repoStore(cache, "a".repeat(40));
          // What fetchCommit does next with it.
          await git(["rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd: store });
          return store;
        }),
      );
      assert.equal(new Set(stores).size, 1);
      assert.deepEqual(
        [...Deno.readDirSync(join(cache, "fleet", "repos"))].map((e) => e.name),
        [`${"a".repeat(40)}.git`],
      );
    } finally {
      await Deno.remove(cache, { recursive: true });
    }
  }
});

Deno.test("repoStore: a store left half made (no HEAD) is made again", async () => {
  const cache = await Deno.makeTempDir();
  try {
    const dir = join(cache, "fleet", "repos", "b.git");
    await Deno.mkdir(join(dir, "objects"), { recursive: true });
    assert.equal(await repoStore(cache, "b"), dir);
    await git(["rev-parse", "--git-common-dir"], { cwd: dir });
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});
