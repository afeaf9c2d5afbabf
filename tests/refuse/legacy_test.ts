/**
 * Issue 26's items of this slice, driven as a pi-worker user would: the original's config and an
 * original-format contract (runId, repositoryRoot, baseRevision). doctor without --task checks
 * defaultProfile; an escaping link is SYMLINK_ESCAPE at prepare; the revision limit ends the run; looking
 * creates nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sh, spot, type SpotEnv, spotEnv, writeEpisode, writeJson } from "../helpers.ts";
import { BUGGY_ADD, demoScenario, type Scenario } from "../scenario.ts";
import { LEGACY_CONFIG, originalContract } from "../legacy/fixtures.ts";

type Err = { code: string; message: string; details: Record<string, unknown> };
const err = (json: Record<string, unknown>) => json.error as Err;
const WRONG = BUGGY_ADD.replace("a - b", "a * b");

async function legacySetup(runId: string): Promise<{ env: SpotEnv; sc: Scenario }> {
  const env = await spotEnv();
  await Deno.copyFile(LEGACY_CONFIG, env.configFile);
  const sc = await demoScenario(env.dir);
  await writeJson(sc.taskFile, await originalContract(sc.repo, runId));
  return { env, sc };
}

Deno.test("pi-worker's config: doctor without --task checks defaultProfile (volcengine), not a routed one", async () => {
  const { env, sc } = await legacySetup("legacy-doctor-1");
  const r = await spot(env, sc.repo, "doctor");
  // Its key is not set here, so it fails: but on the profile the original would have checked.
  assert.equal(err(r.json).code, "DOCTOR_FAILED", r.stderr);
  assert.deepEqual([err(r.json).details.profile, err(r.json).details.profileSource], [
    "volcengine",
    "default",
  ]);
  assert.match(String(err(r.json).details.reason), /defaultProfile/);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("pi-worker's contract: a tracked link out of the repository is SYMLINK_ESCAPE before any branch", async () => {
  const { env, sc } = await legacySetup("legacy-link-1");
  await Deno.symlink("../../", join(sc.repo, "up"));
  await sh(sc.repo, "git", "add", "up");
  await sh(sc.repo, "git", "commit", "-q", "-m", "up");
  // The original contract names HEAD: write it again after the commit.
  await writeJson(sc.taskFile, await originalContract(sc.repo, "legacy-link-1"));
  const r = await spot(
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
  assert.equal(r.code, 4, r.stderr);
  assert.equal(err(r.json).code, "SYMLINK_ESCAPE");
  assert.equal(await sh(sc.repo, "git", "branch", "--list", "pi-worker/*"), "");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("pi-worker's config and contract: the second failed revision ends the run with REVISION_LIMIT", async () => {
  const runId = "legacy-limit-1";
  const { env, sc } = await legacySetup(runId);
  await writeEpisode(sc.episodeFile, [
    { op: "write", path: "add.ts", content: WRONG },
    { op: "write", phase: "revise", path: "add.ts", content: WRONG.replace("a * b", "a * b * 1") },
  ]);
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
    "--sandbox",
    "none",
  );
  assert.equal(prep.code, 0, prep.stderr);
  await spot(env, sc.repo, "run", "--id", runId);
  let verify = await spot(env, sc.repo, "verify", "--id", runId);
  for (const round of [1, 2]) {
    assert.deepEqual([verify.json.passed, verify.json.status], [false, "reviewing"], verify.stderr);
    const review = join(env.dir, `revise-${round}.json`);
    await writeJson(review, {
      schemaVersion: 1,
      verdict: "revise",
      diffSha256: verify.json.diffSha256,
      findings: [],
      verificationGaps: ["add_test.ts fails"],
      summary: "still wrong",
    });
    const revise = await spot(env, sc.repo, "revise", "--id", runId, "--review", review);
    if (round === 2) {
      // The episode's revision writes the same file again: a last round that changed nothing, checks failing.
      assert.equal(revise.code, 3, revise.stderr);
      assert.equal(err(revise.json).code, "REVISION_LIMIT");
      assert.match(err(revise.json).message, /the checks failed and revision round 2 changed nothing/);
      break;
    }
    assert.equal(revise.code, 0, revise.stderr);
    verify = await spot(env, sc.repo, "verify", "--id", runId);
  }
  const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", runId, "state.json")));
  assert.deepEqual([state.status, state.failure.code], ["failed", "REVISION_LIMIT"]);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("pi-worker's config: doctor and list on a fresh state dir create nothing", async () => {
  const { env, sc } = await legacySetup("legacy-look-1");
  for (const args of [["doctor", "--task", sc.taskFile], ["list"]]) {
    await spot(env, sc.repo, ...args);
    await assert.rejects(Deno.lstat(env.stateDir), Deno.errors.NotFound, `${args[0]} made the state dir`);
    await assert.rejects(
      Deno.lstat(join(env.dir, "cache")),
      Deno.errors.NotFound,
      `${args[0]} made the cache`,
    );
  }
  await Deno.remove(env.dir, { recursive: true });
});
