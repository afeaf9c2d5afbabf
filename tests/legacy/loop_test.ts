/**
 * An existing pi-worker install moving to spot: its config, a task contract and a review file written
 * exactly as the original wanted them, through the whole loop with the replay worker.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario } from "../scenario.ts";
import { LEGACY_CONFIG, originalContract } from "./fixtures.ts";

Deno.test("the original's config, contract and review drive prepare → run → verify → approve → integrate", async () => {
  const env = await spotEnv();
  await Deno.copyFile(LEGACY_CONFIG, env.configFile);
  const sc = await demoScenario(env.dir);
  const runId = "legacy-loop-1";
  await writeJson(sc.taskFile, await originalContract(sc.repo, runId));

  const prep = await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    sc.taskFile,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
  );
  assert.equal(prep.code, 0, prep.stderr);
  assert.equal(prep.json.runId, runId);
  assert.equal(prep.stderr, "", "piped, the legacy keys' warnings are in the JSON, not on stderr");
  const warned = (prep.json.warnings as { key: string; message: string }[]).find((w) =>
    w.key === "limits.piTimeoutSeconds"
  );
  assert.match(warned?.message ?? "", /^deprecated/);
  const run = await spot(env, sc.repo, "run", "--id", runId);
  assert.equal(run.code, 0, run.stderr);
  const verify = await spot(env, sc.repo, "verify", "--id", runId);
  assert.equal(verify.code, 0, verify.stderr);
  assert.equal(verify.json.passed, true);

  // The original's review result: the same six keys, nothing spot added.
  const review = join(env.dir, "review.json");
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: verify.json.diffSha256,
    findings: [{
      priority: "P3",
      file: "add.ts",
      line: 2,
      problem: "No test for negative numbers",
      evidence: "add_test.ts only checks 2 + 3",
      requiredChange: "none for this task",
    }],
    verificationGaps: [],
    summary: "checks pass; the diff touches only add.ts",
  });
  const approve = await spot(
    env,
    sc.repo,
    "approve",
    "--id",
    runId,
    "--review",
    review,
    "--message",
    "Fix add()",
  );
  assert.equal(approve.code, 0, approve.stderr);
  const integrate = await spot(env, sc.repo, "integrate", "--id", runId);
  assert.equal(integrate.code, 0, integrate.stderr);
  assert.equal(integrate.json.status, "integrated");
  assert.match(await Deno.readTextFile(join(sc.repo, "add.ts")), /a \+ b/);

  const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", runId, "state.json")));
  assert.equal(state.status, "integrated");
  assert.equal(state.origin, undefined, "a run spot drove is spot's own");
  const task = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", runId, "task.json")));
  assert.deepEqual(task.forbiddenPaths, ["add_test.ts"]);
  assert.equal(task.difficulty, undefined);
  await Deno.remove(env.dir, { recursive: true });
});
