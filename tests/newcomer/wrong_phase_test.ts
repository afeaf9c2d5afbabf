/**
 * A verb called in the wrong phase of a live run refuses with STATE_INVALID and the command that would move
 * the run on (`nextCommand`): a newcomer who ran `spot verify` straight after `prepare` was told only that
 * the run was prepared.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario, prepareScenario } from "../scenario.ts";

Deno.test("verify, self-review, integrate, approve and diff on a prepared run each name spot run as nextCommand", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const runId = await prepareScenario(env, sc, "--sandbox", "none");
  const review = join(env.dir, "review.json");
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: "a".repeat(64),
    findings: [],
    verificationGaps: [],
    summary: "s",
  });
  const calls = [
    ["verify"],
    ["self-review"],
    ["integrate"],
    ["approve", "--review", review, "--message", "m"],
    ["revise", "--review", review],
    ["diff"],
  ];
  for (const [verb, ...rest] of calls) {
    const r = await spot(env, sc.repo, verb, "--id", runId, ...rest);
    assert.equal(r.code, 6, `${verb}: ${r.stderr}`);
    const error = r.json.error as { code: string; details: Record<string, unknown> };
    assert.equal(error.code, "STATE_INVALID", verb);
    assert.equal(error.details.nextCommand, `spot run --id ${runId}`, `${verb}: ${r.stderr}`);
  }
  await Deno.remove(env.dir, { recursive: true });
});
