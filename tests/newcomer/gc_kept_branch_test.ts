/**
 * `spot cleanup` keeps a blocked run's worker branch (its work); `spot gc` past its window removes that branch
 * too, its diff saved first. A newcomer saw gc count such a run as "already clean" forever, its branch left.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sh, spot, spotEnv, writeEpisode } from "../helpers.ts";
import { demoScenario, prepareScenario } from "../scenario.ts";

type Row = { runId: string; branch: string; branchOnly?: boolean; diffFile?: string | null };

Deno.test("gc removes the branch a cleanup kept for a blocked run once the window has passed", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const outOfScope = join(env.dir, "out-of-scope.jsonl");
  await writeEpisode(outOfScope, [{ op: "write", path: "elsewhere.ts", content: "kept work\n" }]);
  const id = await prepareScenario(env, { ...sc, episodeFile: outOfScope }, "--sandbox", "none");
  assert.equal((await spot(env, sc.repo, "run", "--id", id)).code, 0);
  assert.equal((await spot(env, sc.repo, "verify", "--id", id)).code, 4);
  const cleanup = await spot(env, sc.repo, "cleanup", "--id", id);
  assert.equal(cleanup.code, 0, cleanup.stderr);
  const branch = String(cleanup.json.retainedBranch);
  assert.match(
    await sh(sc.repo, "git", "branch", "--list", branch),
    /pi-worker\//,
    "cleanup kept the branch",
  );
  const patch = join(env.stateDir, "runs", id, "diff.patch");
  assert.match(await Deno.readTextFile(patch), /\+kept work/, "cleanup saved the worktree's work");

  // A second run whose branch holds a commit and whose diff.patch is gone (its worktree had gone before
  // cleanup): gc saves what the branch holds before it removes it.
  const id2 = await prepareScenario(env, { ...sc, episodeFile: outOfScope }, "--sandbox", "none");
  assert.equal((await spot(env, sc.repo, "run", "--id", id2)).code, 0);
  assert.equal((await spot(env, sc.repo, "verify", "--id", id2)).code, 4);
  const branch2 = String((await spot(env, sc.repo, "cleanup", "--id", id2)).json.retainedBranch);
  await Deno.remove(join(env.stateDir, "runs", id2, "diff.patch"));
  const scratch = join(env.dir, "scratch");
  await sh(sc.repo, "git", "worktree", "add", "-q", scratch, branch2);
  await Deno.writeTextFile(join(scratch, "committed.ts"), "on the branch\n");
  await sh(scratch, "git", "add", "committed.ts");
  await sh(scratch, "git", "commit", "-q", "-m", "work on the branch");
  await sh(sc.repo, "git", "worktree", "remove", "--force", scratch);

  const young = await spot(env, sc.repo, "gc");
  assert.equal(young.code, 0, young.stderr);
  assert.deepEqual(young.json.wouldCollect, [], "within the window the kept branch stays");
  assert.ok((young.json.retained as Row[]).some((r) => r.runId === id), "and the run is listed as kept");

  const preview = await spot(env, sc.repo, "gc", "--older-than", "0");
  assert.deepEqual(preview.json.collected, [], "a preview collects nothing");
  const row = (preview.json.wouldCollect as Row[]).find((r) => r.runId === id);
  assert.ok(row, `the kept branch is offered: ${preview.stdout}`);
  assert.equal(row.branch, branch);
  assert.equal(row.branchOnly, true);
  assert.notEqual(await sh(sc.repo, "git", "branch", "--list", branch), "", "a preview removed the branch");

  const done = await spot(env, sc.repo, "gc", "--older-than", "0", "--confirm");
  assert.equal(done.code, 0, done.stderr);
  const collected = (done.json.collected as Row[]).find((r) => r.runId === id);
  assert.ok(collected, done.stdout);
  assert.equal(await sh(sc.repo, "git", "branch", "--list", branch), "", "the branch is gone");
  // The branch held nothing beyond its base (a blocked run's work was never committed): cleanup's diff stays.
  assert.equal(collected.diffFile, null);
  assert.match(await Deno.readTextFile(patch), /\+kept work/, "the saved work is still there");
  const second = (done.json.collected as Row[]).find((r) => r.runId === id2);
  assert.ok(second?.diffFile, done.stdout);
  assert.equal(await sh(sc.repo, "git", "branch", "--list", branch2), "");
  assert.match(
    await Deno.readTextFile(second.diffFile),
    /\+on the branch/,
    "the branch's work was saved first",
  );
  const again = await spot(env, sc.repo, "gc", "--older-than", "0");
  assert.deepEqual(again.json.wouldCollect, []);
  assert.equal(again.json.alreadyClean, 2);
  await Deno.remove(env.dir, { recursive: true });
});
