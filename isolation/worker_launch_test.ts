import assert from "node:assert/strict";
import { join } from "node:path";
import { planPaths } from "./worker_launch.ts";

Deno.test("planPaths() makes run-dir paths on the command line writable, outside files readable, the run dir itself neither", async () => {
  const root = await Deno.makeTempDir({ prefix: "spot-planpaths-" });
  try {
    const runDir = join(root, "runs", "r1");
    const worktree = join(root, "wt");
    const episode = join(root, "episode.jsonl");
    await Deno.mkdir(runDir, { recursive: true });
    await Deno.writeTextFile(episode, "");
    const paths = planPaths(
      [
        "--session-dir",
        join(runDir, "pi-session"),
        "--episode",
        episode,
        join(worktree, "x.ts"),
        "relative/file",
        join(root, "missing.txt"),
        runDir,
      ],
      runDir,
      worktree,
    );
    assert.deepEqual(paths, { writable: [join(runDir, "pi-session")], readOnly: [episode] });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
