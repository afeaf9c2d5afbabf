/**
 * One landing at a time per repository: two `spot integrate` started together on runs prepared on the same
 * HEAD. The landing lock lets one land first; the other waits for it, then decides on the HEAD it finds, by the
 * documented rule (the source must be as at prepare): SOURCE_CHANGED, naming the landing it waited for, its
 * checks never run, its commit kept on its branch. No lock error, and the repository is left clean.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, sh, spot, spotEnv } from "../helpers.ts";
import { committedRun, contract, lengthenStoredChecks, runState, worktrees } from "./helpers.ts";

Deno.test("two integrates into one repository at once: one lands, the other waits and is refused SOURCE_CHANGED", async () => {
  const env = await spotEnv({ sandbox: "none" });
  const repo = await makeRepo({ "a.txt": "a\n", "b.txt": "b\n" }, env.dir);
  const head = await sh(repo, "git", "rev-parse", "HEAD");
  // Checks that take a moment, so the two landings overlap for certain.
  const slow = ["sh", "-c", "sleep 2"];
  const ids = [
    await committedRun(env, repo, await contract(env, "a", { allowed: ["a.txt"], checks: [slow] }), {
      "a.txt": "A\n",
    }),
    await committedRun(env, repo, await contract(env, "b", { allowed: ["b.txt"], checks: [slow] }), {
      "b.txt": "B\n",
    }),
  ];
  for (const id of ids) assert.equal((await runState(env, id)).sourceHead, head);
  // The contracts changed after verify, so each landing runs its checks in a scratch tree: a landing as
  // verified runs none and can be over before the other integrate starts, with nothing to wait for.
  for (const id of ids) await lengthenStoredChecks(join(env.stateDir, "runs", id));

  const results = await Promise.all(ids.map((id) => spot(env, repo, "integrate", "--id", id)));
  const won = results.findIndex((r) => r.code === 0);
  assert.notEqual(won, -1, results.map((r) => r.stderr).join("\n"));
  const lost = 1 - won;
  const loser = results[lost];
  assert.equal(loser.code, 4, loser.stdout + loser.stderr);
  const error = loser.json.error as {
    code: string;
    details: { waitedFor?: string; source: { before: { head: string }; now: { head: string } } };
  };
  assert.equal(error.code, "SOURCE_CHANGED");
  assert.equal(error.details.waitedFor, `run ${ids[won]}`, "the loser did not wait for the winner's landing");
  assert.equal(error.details.source.before.head, head);
  assert.equal(error.details.source.now.head, results[won].json.integratedCommit);
  // It decided before running anything: its checks never ran.
  const loserChecks = join(env.stateDir, "runs", ids[lost], "post-integration-verification.json");
  assert.equal(await Deno.stat(loserChecks).catch(() => null), null);

  // Exactly one commit landed, on the HEAD both were prepared on; the loser's stays on its branch.
  assert.equal(await sh(repo, "git", "rev-list", "--count", `${head}..HEAD`), "1");
  assert.equal(await sh(repo, "git", "rev-parse", "HEAD"), results[won].json.integratedCommit);
  assert.equal((await runState(env, ids[lost])).status, "blocked");
  assert.match(await sh(repo, "git", "log", "-1", "--format=%B", `pi-worker/${ids[lost]}`), /Pi-Worker-Run/);
  // The repository is clean: no change in the checkout, no scratch tree left, no stale lock.
  assert.equal(await sh(repo, "git", "status", "--porcelain", "--ignored"), "");
  const runTrees = await Promise.all(ids.map(async (id) => (await runState(env, id)).worktreePath));
  assert.deepEqual(
    (await worktrees(repo)).sort(),
    [repo, ...runTrees].map((p) => Deno.realPathSync(p)).sort(),
  );
  await Deno.remove(env.dir, { recursive: true });
});
