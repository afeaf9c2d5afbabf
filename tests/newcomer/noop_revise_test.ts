/**
 * A revision turn that leaves the diff exactly as reviewed is not a silent success: a newcomer's episode had
 * no `"phase": "revise"` lines, revise "passed", and verify then checked the same diff again.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario, prepareScenario } from "../scenario.ts";

Deno.test("a revise that changed nothing fails REVISION_NO_CHANGE and puts the run back at review", async () => {
  const env = await spotEnv({ selfReview: { enabled: false } });
  const sc = await demoScenario(env.dir);
  const id = await prepareScenario(env, sc, "--sandbox", "none");
  assert.equal((await spot(env, sc.repo, "run", "--id", id)).code, 0);
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(verify.json.status, "reviewing", verify.stderr);
  const review = join(env.dir, "revise.json");
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "revise",
    diffSha256: verify.json.diffSha256,
    findings: [{
      priority: "P2",
      file: "add.ts",
      line: 1,
      problem: "no doc comment",
      evidence: "add.ts:1",
      requiredChange: "document add()",
    }],
    verificationGaps: [],
    summary: "document it",
  });

  const revise = await spot(env, sc.repo, "revise", "--id", id, "--review", review);
  assert.equal(revise.code, 3, revise.stdout + revise.stderr);
  const error = revise.json.error as { code: string; message: string; details: Record<string, unknown> };
  assert.equal(error.code, "REVISION_NO_CHANGE");
  assert.match(error.message, /Revision round 1 of run "[^"]+" changed nothing/);
  assert.equal(error.details.roundsLeft, 1);
  assert.equal(error.details.nextCommand, `spot revise --id ${id} --review REVIEW.json`);

  const inspect = await spot(env, sc.repo, "inspect", "--id", id, "--json");
  const state = (inspect.json.state ?? inspect.json) as {
    status: string;
    revisionRound: number;
    diffSha256: string;
  };
  assert.equal(state.status, "reviewing", "back at review, not verifying the same diff again");
  assert.equal(state.revisionRound, 1, "the round is spent");
  assert.equal(state.diffSha256, verify.json.diffSha256);
  // From review the parent can still approve the very diff it reviewed.
  const approveFile = join(env.dir, "approve.json");
  await writeJson(approveFile, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: verify.json.diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "fine as it is",
  });
  const approve = await spot(
    env,
    sc.repo,
    "approve",
    "--id",
    id,
    "--review",
    approveFile,
    "--message",
    "Fix add",
  );
  assert.equal(approve.code, 0, approve.stderr);
  await Deno.remove(env.dir, { recursive: true });
});
