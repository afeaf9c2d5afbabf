import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo } from "../tests/helpers.ts";
import { addWorktree, removeWorktree } from "./worktree.ts";

Deno.test("twelve worktrees added and removed at once in one repository all succeed", async () => {
  // Raw `git worktree add` run twelve at a time in a shell fails now and then with "failed to read
  // .git/worktrees/<x>/commondir" (3 times in 36 here), and a job's two builders, each in its own process, hit it
  // in CI. In one process spot's spawns are staggered enough that this guard rarely sees the race without the
  // lock: it holds the lock to never costing a failure, not to catching the race.
  const dir = await Deno.makeTempDir();
  try {
    const repo = await makeRepo({ "a.txt": "a\n" }, dir);
    for (let round = 0; round < 2; round++) {
      const refs = await Promise.all(
        Array.from(
          { length: 12 },
          (_, i) =>
            addWorktree(repo, { path: join(dir, `w${round}-${i}`), branch: `b${round}-${i}`, base: "HEAD" }),
        ),
      );
      for (const ref of refs) assert.equal(await Deno.readTextFile(join(ref.path, "a.txt")), "a\n");
      await Promise.all(
        refs.map((r, i) =>
          removeWorktree(repo, { path: r.path, branch: `b${round}-${i}`, deleteBranch: true })
        ),
      );
      for (const ref of refs) assert.equal(await Deno.stat(ref.path).then(() => true, () => false), false);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
