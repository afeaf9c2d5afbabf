/**
 * A blocked integration is reported the same way in every case. The approved commit cherry-picked by hand and
 * then edited is no landing of spot's: `integrate` refuses it like any other moved source (exit 4,
 * SOURCE_CHANGED, the run blocked, HEAD and the checkout untouched), and says HEAD carries the run's trailer.
 * Only spot's own landing, recorded before the branch moves, is recognised when `integrate` runs again.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, sh, spot, spotEnv } from "../helpers.ts";
import { checkoutFiles, committedRun, contract, runState } from "./helpers.ts";

const KEYS = ["hint", "implementationCommit", "landed", "pushed", "runId", "source", "workerBranch"];

Deno.test("a hand-made cherry-pick, edited after, is refused like any moved source: blocked, exit 4, nothing touched", async () => {
  const env = await spotEnv({ sandbox: "none" });
  const repo = await makeRepo({ "a.txt": "a\n", "b.txt": "b\n", "README.md": "# r\n" }, env.dir);
  const taskA = await contract(env, "a", { allowed: ["a.txt"], checks: [["true"]] });
  const taskB = await contract(env, "b", { allowed: ["b.txt"], checks: [["true"]] });
  const byHand = await committedRun(env, repo, taskA, { "a.txt": "A\n" });
  const moved = await committedRun(env, repo, taskB, { "b.txt": "B\n" });

  const commit = (await runState(env, byHand)).implementationCommit;
  await sh(repo, "git", "cherry-pick", commit);
  await Deno.writeTextFile(join(repo, "README.md"), "# r\nedited after the pick\n");
  const head = await sh(repo, "git", "rev-parse", "HEAD");
  const files = await checkoutFiles(repo);

  const picked = await spot(env, repo, "integrate", "--id", byHand);
  const other = await spot(env, repo, "integrate", "--id", moved);
  for (const [name, r] of [["by hand", picked], ["moved", other]] as const) {
    assert.equal(r.code, 4, `${name}: ${r.stdout}${r.stderr}`);
    const error = r.json.error as { code: string; details: Record<string, unknown> };
    assert.equal(error.code, "SOURCE_CHANGED", name);
    assert.equal(error.details.landed, false, name);
    for (const key of KEYS) {
      assert.ok(key in error.details, `${name}: no ${key} in ${Object.keys(error.details)}`);
    }
  }
  assert.match(String((picked.json.error as { details: { byHand: string } }).details.byHand), /by hand/);
  for (const id of [byHand, moved]) assert.equal((await runState(env, id)).status, "blocked");
  assert.equal(await sh(repo, "git", "rev-parse", "HEAD"), head, "HEAD moved");
  assert.deepEqual(await checkoutFiles(repo), files, "the checkout changed");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("integrate again after a landing it made but did not record (a kill) finishes it, landing nothing twice", async () => {
  const env = await spotEnv({ sandbox: "none" });
  const repo = await makeRepo({ "a.txt": "a\n" }, env.dir);
  const id = await committedRun(
    env,
    repo,
    await contract(env, "a", { allowed: ["a.txt"], checks: [["true"]] }),
    {
      "a.txt": "A\n",
    },
  );
  const first = await spot(env, repo, "integrate", "--id", id);
  assert.equal(first.code, 0, first.stderr);
  // As a kill right after the fast-forward leaves it: the landing recorded, the run still committed.
  const file = join(env.stateDir, "runs", id, "state.json");
  const state = JSON.parse(await Deno.readTextFile(file));
  assert.equal(state.landing, undefined, "the landing record outlived the landing");
  const landing = { commit: first.json.integratedCommit, onto: state.sourceHead, at: state.updatedAt };
  await Deno.writeTextFile(
    file,
    JSON.stringify({ ...state, status: "committed", integratedCommit: null, landing }),
  );
  await Deno.writeTextFile(join(repo, "notes.txt"), "the user's edit since\n");
  const again = await spot(env, repo, "integrate", "--id", id);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.json.status, "integrated");
  assert.equal(again.json.integratedCommit, first.json.integratedCommit);
  assert.equal(await sh(repo, "git", "rev-parse", "HEAD"), first.json.integratedCommit);
  await Deno.remove(env.dir, { recursive: true });
});
