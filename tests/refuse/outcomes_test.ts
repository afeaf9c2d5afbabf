/**
 * The right word for each outcome, through the CLI: an empty diff is NO_CHANGES (the run ends failed, not
 * blocked as a security finding), a run at its revision limit ends instead of waiting in reviewing, a
 * missing repositoryRoot is REPO_NOT_FOUND, and a run id with no run says whether the run was never made.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario, prepareScenario } from "../scenario.ts";

type Err = { code: string; message: string; details: Record<string, unknown> };
const err = (json: Record<string, unknown>) => json.error as Err;
const WRONG_ADD = "export function add(a: number, b: number): number {\n  return a * b;\n}\n";

async function stateOf(stateDir: string, id: string): Promise<{ status: string; failure: { code: string } }> {
  return JSON.parse(await Deno.readTextFile(join(stateDir, "runs", id, "state.json")));
}

async function reviseReview(dir: string, diffSha256: string): Promise<string> {
  const file = join(dir, `revise-${diffSha256.slice(0, 8)}.json`);
  await writeJson(file, {
    schemaVersion: 1,
    verdict: "revise",
    diffSha256,
    findings: [{
      priority: "P1",
      file: "add.ts",
      line: 2,
      problem: "multiplies",
      evidence: "add(2, 3) is 6",
      requiredChange: "add the arguments",
    }],
    verificationGaps: [],
    summary: "wrong operator",
  });
  return file;
}

Deno.test("an empty diff ends the run failed with NO_CHANGES (exit 3), not SECURITY_BLOCKED", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [{ op: "say", text: "Nothing to do, I think." }]);
  const id = await prepareScenario(env, sc, "--sandbox", "none");
  assert.equal((await spot(env, sc.repo, "run", "--id", id)).code, 0);
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(verify.code, 3, verify.stderr);
  assert.equal(err(verify.json).code, "NO_CHANGES");
  assert.match(err(verify.json).message, /changed nothing/);
  const state = await stateOf(env.stateDir, id);
  assert.deepEqual([state.status, state.failure.code], ["failed", "NO_CHANGES"]);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("checks that still fail after the last revision round end the run failed with REVISION_LIMIT", async () => {
  const env = await spotEnv({ maxRevisionRounds: 1 });
  const sc = await demoScenario(env.dir, [
    { op: "write", path: "add.ts", content: WRONG_ADD },
    { op: "write", phase: "revise", path: "add.ts", content: WRONG_ADD.replace("a * b", "a * b + 0") },
  ]);
  const id = await prepareScenario(env, sc, "--sandbox", "none");
  await spot(env, sc.repo, "run", "--id", id);
  const first = await spot(env, sc.repo, "verify", "--id", id);
  assert.deepEqual([first.code, first.json.passed, first.json.status], [0, false, "reviewing"], first.stderr);
  const revise = await spot(
    env,
    sc.repo,
    "revise",
    "--id",
    id,
    "--review",
    await reviseReview(env.dir, String(first.json.diffSha256)),
  );
  assert.equal(revise.code, 0, revise.stderr);
  const last = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(last.code, 3, last.stderr);
  assert.equal(err(last.json).code, "REVISION_LIMIT");
  assert.match(err(last.json).message, /checks failed and all 1 revision round\(s\) are used/);
  const state = await stateOf(env.stateDir, id);
  assert.deepEqual([state.status, state.failure.code], ["failed", "REVISION_LIMIT"]);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a revise asked for when no round is left ends the run (REVISION_LIMIT) instead of leaving it reviewing", async () => {
  const env = await spotEnv({ maxRevisionRounds: 0, selfReview: { enabled: false } });
  const sc = await demoScenario(env.dir);
  const id = await prepareScenario(env, sc, "--sandbox", "none");
  await spot(env, sc.repo, "run", "--id", id);
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  assert.deepEqual([verify.json.passed, verify.json.status], [true, "reviewing"], verify.stderr);
  const revise = await spot(
    env,
    sc.repo,
    "revise",
    "--id",
    id,
    "--review",
    await reviseReview(env.dir, String(verify.json.diffSha256)),
  );
  assert.equal(revise.code, 3, revise.stderr);
  assert.equal(err(revise.json).code, "REVISION_LIMIT");
  const state = await stateOf(env.stateDir, id);
  assert.deepEqual([state.status, state.failure.code], ["failed", "REVISION_LIMIT"]);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a repositoryRoot that does not exist is REPO_NOT_FOUND, not 'not inside a git repository'", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const task = JSON.parse(await Deno.readTextFile(sc.taskFile));
  const gone = join(env.dir, "no-such-checkout");
  await writeJson(sc.taskFile, { ...task, repositoryRoot: gone });
  for (const verb of ["prepare", "doctor"]) {
    const r = await spot(
      env,
      sc.repo,
      verb,
      "--task",
      sc.taskFile,
      "--profile",
      "replay",
      "--model",
      sc.episodeFile,
    );
    assert.equal(r.code, 2, `${verb}: ${r.stderr}`);
    assert.equal(err(r.json).code, "REPO_NOT_FOUND", verb);
    assert.match(err(r.json).message, new RegExp(`"${gone}": it does not exist`));
  }
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a run id with no run says whether no run has it or the run is not created yet", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const none = await spot(env, sc.repo, "inspect", "--id", "run-never");
  assert.equal(err(none.json).code, "RUN_NOT_FOUND");
  assert.match(err(none.json).message, /no run has this id/);
  await Deno.mkdir(join(env.stateDir, "runs", "run-reserved"), { recursive: true });
  const reserved = await spot(env, sc.repo, "inspect", "--id", "run-reserved");
  assert.equal(err(reserved.json).code, "RUN_NOT_FOUND");
  assert.match(err(reserved.json).message, /has not been created yet/);
  assert.doesNotMatch(err(reserved.json).message, /could not be read/);
  await Deno.remove(env.dir, { recursive: true });
});
