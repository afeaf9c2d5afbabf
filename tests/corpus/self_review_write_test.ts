/**
 * Corpus, part 5: a self-review turn that writes. The turn is read-only by construction: under bwrap the
 * worktree is mounted read-only for it, and without an OS sandbox a worker whose CLI does not itself refuse
 * edits (the replay worker, qoder, trae, kimi, zcode) gets no self-review turn at all.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv } from "../helpers.ts";
import { demoScenario, FIXED_ADD, prepareScenario } from "../scenario.ts";

const PAYLOAD = FIXED_ADD + "export const late = 'written during the self-review';\n";

async function selfReviewThatWrites(sandbox: "bwrap" | "none") {
  const env = await spotEnv({ selfReview: { minDiffBytes: 0, minSurfaceBytes: 0 } });
  const sc = await demoScenario(env.dir, [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "write", phase: "self-review", path: "add.ts", content: PAYLOAD },
    { op: "say", phase: "self-review", text: "{}" },
  ]);
  const id = await prepareScenario(env, sc, "--sandbox", sandbox);
  assert.equal((await spot(env, sc.repo, "run", "--id", id)).code, 0);
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(verify.json.status, "selfReviewing", verify.stderr);
  const self = await spot(env, sc.repo, "self-review", "--id", id);
  const runDir = join(env.stateDir, "runs", id);
  const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  const worktree = await Deno.readTextFile(join(state.worktreePath, "add.ts"));
  return { env, self, state, worktree };
}

Deno.test("corpus: under bwrap a self-review turn cannot write: the worktree is read-only for it", async () => {
  const r = await selfReviewThatWrites("bwrap");
  assert.equal(r.worktree, FIXED_ADD, "the self-review turn changed the worktree");
  assert.equal(r.state.status, "reviewing", r.self.stdout + r.self.stderr);
  assert.equal(r.state.sandboxDetails.steps["self-review"].backend, "bwrap");
  await Deno.remove(r.env.dir, { recursive: true });
});

Deno.test("corpus: without an OS sandbox a worker whose CLI does not refuse edits gets no self-review turn", async () => {
  const r = await selfReviewThatWrites("none");
  assert.equal(r.worktree, FIXED_ADD, "the self-review turn changed the worktree");
  assert.deepEqual([r.state.status, r.self.json.reason], ["reviewing", "read-only-not-enforced"]);
  assert.equal(r.state.selfReviewSkipReason, "read-only-not-enforced");
  await Deno.remove(r.env.dir, { recursive: true });
});
