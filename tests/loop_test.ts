/** The closed loop through the real CLI: prepare → … → cleanup with the replay worker. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { grantsAll } from "../sandbox/deno_flags.ts";
import { readJsonLines } from "../store/files.ts";
import { demoScenario, prepareScenario } from "./scenario.ts";
import { sh, spot, spotEnv, writeJson } from "./helpers.ts";

async function approveReview(dir: string, diffSha256: string): Promise<string> {
  const file = join(dir, `review-${crypto.randomUUID().slice(0, 6)}.json`);
  await writeJson(file, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "checks pass",
  });
  return file;
}

Deno.test("the full loop integrates the fix and records every transition", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
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
  assert.equal(prep.json.status, "prepared");
  const id = String(prep.json.runId);
  assert.equal(prep.json.workerBranch, `pi-worker/${id}`);

  const run = await spot(env, sc.repo, "run", "--id", id);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.json.status, "verifying");
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(verify.code, 0, verify.stderr);
  assert.equal(verify.json.passed, true);
  assert.match(String(verify.json.diffSha256), /^[0-9a-f]{64}$/);
  const self = await spot(env, sc.repo, "self-review", "--id", id);
  assert.equal(self.json.reason, "diff-too-small");
  const review = await approveReview(env.dir, String(verify.json.diffSha256));
  const approve = await spot(
    env,
    sc.repo,
    "approve",
    "--id",
    id,
    "--review",
    review,
    "--message",
    "Fix add()",
  );
  assert.equal(approve.code, 0, approve.stderr);
  const integrate = await spot(env, sc.repo, "integrate", "--id", id);
  assert.equal(integrate.code, 0, integrate.stderr);
  assert.equal(integrate.json.pushed, false);
  assert.equal((await spot(env, sc.repo, "report", "--id", id)).code, 0);
  assert.equal((await spot(env, sc.repo, "cleanup", "--id", id)).code, 0);

  const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "state.json")));
  assert.deepEqual(
    state.transitions.map((t: { to: string }) => t.to),
    ["prepared", "running", "verifying", "selfReviewing", "reviewing", "approved", "committed", "integrated"],
  );
  assert.equal(state.sandbox, "os", "bwrap is the default where it is available (CI installs it)");
  assert.ok(state.cleanedAt);
  assert.match(await Deno.readTextFile(join(sc.repo, "add.ts")), /a \+ b/);
  const log = await sh(sc.repo, "git", "log", "-1", "--format=%B");
  assert.match(log, new RegExp(`Pi-Worker-Run: ${id}`));
  assert.equal(await sh(sc.repo, "git", "status", "--porcelain"), "");
  assert.equal(
    await sh(sc.repo, "git", "worktree", "list", "--porcelain").then((t) => t.split("worktree ").length - 1),
    1,
  );
  assert.equal(await sh(sc.repo, "git", "branch", "--list", `pi-worker/${id}`), "");

  const steps = await readJsonLines<{ kind: string; argv: string[]; sandbox: string }>(
    join(env.stateDir, "runs", id, "steps.jsonl"),
  );
  // The worker's turn and verify's checks; integrate landed the tree verify checked, so it ran no step of its own.
  assert.deepEqual(steps.map((s) => s.kind), ["worker", "verify"]);
  const post = JSON.parse(
    await Deno.readTextFile(join(env.stateDir, "runs", id, "post-integration-verification.json")),
  );
  assert.equal(post.reused, "verification.json");
  for (const step of steps) {
    assert.equal(grantsAll(step.argv), false, `step ${step.kind} grants everything: ${step.argv.join(" ")}`);
    assert.ok(step.argv.includes("--no-prompt"));
    assert.ok(
      step.argv.some((a) => a.startsWith("--allow-run=/")),
      "run permission is scoped to absolute binaries",
    );
    assert.ok(!step.argv.some((a) => a.startsWith("--allow-net")), "steps get no network");
    assert.equal(step.sandbox, "os");
  }
  const worker = steps[0];
  assert.ok(worker.argv.includes(`--allow-write=${state.worktreePath},${join(env.stateDir, "runs", id)}`));
  const audit = await readJsonLines<{ command: string; phase: string }>(join(env.stateDir, "audit.jsonl"));
  assert.equal(audit.filter((a) => a.phase === "start").length, 8);
  const workerLog = await Deno.readTextFile(join(env.stateDir, "runs", id, "worker.log"));
  assert.match(workerLog, /says: Changed the subtraction/);
  assert.ok(!workerLog.includes('{"type"'), "worker.log is human-readable, not raw JSON");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a failing check sends the run to review, and a revision round fixes it", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [
    {
      op: "write",
      path: "add.ts",
      content: "export function add(a: number, b: number): number {\n  return a * b;\n}\n",
    },
    { op: "say", text: "Done." },
    {
      op: "write",
      phase: "revise",
      path: "add.ts",
      content: "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
    },
    { op: "say", phase: "revise", text: "Fixed after review." },
  ]);
  const id = await prepareScenario(env, sc);
  assert.equal((await spot(env, sc.repo, "run", "--id", id)).code, 0);
  const first = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.json.passed, false);
  assert.equal(first.json.status, "reviewing");

  // Approving a failed verification is refused even with a well-formed approve verdict.
  const badApprove = await spot(
    env,
    sc.repo,
    "approve",
    "--id",
    id,
    "--review",
    await approveReview(env.dir, String(first.json.diffSha256)),
    "--message",
    "nope",
  );
  assert.equal(badApprove.code, 6);
  assert.equal((badApprove.json.error as { code: string }).code, "REVIEW_GATE");

  const reviseFile = join(env.dir, "revise.json");
  await writeJson(reviseFile, {
    schemaVersion: 1,
    verdict: "revise",
    diffSha256: first.json.diffSha256,
    findings: [{
      priority: "P1",
      file: "add.ts",
      line: 2,
      problem: "multiplies",
      evidence: "add(2,3) is 6",
      requiredChange: "add",
    }],
    verificationGaps: [],
    summary: "wrong operator",
  });
  const revise = await spot(env, sc.repo, "revise", "--id", id, "--review", reviseFile);
  assert.equal(revise.code, 0, revise.stderr);
  assert.equal(revise.json.revisionRound, 1);
  assert.equal(revise.json.status, "verifying");
  const second = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(second.json.passed, true);
  const approve = await spot(
    env,
    sc.repo,
    "approve",
    "--id",
    id,
    "--review",
    await approveReview(env.dir, String(second.json.diffSha256)),
    "--message",
    "Fix add()",
  );
  assert.equal(approve.code, 0, approve.stderr);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("approve refuses a review bound to another diff with the hash to use, and a diff that changed after verify", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const id = await prepareScenario(env, sc);
  await spot(env, sc.repo, "run", "--id", id);
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  const sha = String(verify.json.diffSha256);
  const stale = await spot(
    env,
    sc.repo,
    "approve",
    "--id",
    id,
    "--review",
    await approveReview(env.dir, "0".repeat(64)),
    "--message",
    "x",
  );
  // The diff did not move: the review is what is wrong, and the error gives the hash to review.
  const wrong = stale.json.error as { code: string; message: string; details: { diffSha256: string } };
  assert.equal(stale.code, 2, stale.stderr);
  assert.equal(wrong.code, "REVIEW_INVALID");
  assert.equal(wrong.details.diffSha256, sha);
  assert.match(wrong.message, new RegExp(`"diffSha256": "${sha}"`));
  assert.doesNotMatch(wrong.message, /diff changed since/);
  // The worker (or anyone) edits the worktree after verification: the reviewed hash no longer matches.
  const worktree = String(
    JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "state.json"))).worktreePath,
  );
  await Deno.writeTextFile(join(worktree, "add.ts"), "export const add = (a: number, b: number) => a + b;\n");
  const moved = await spot(
    env,
    sc.repo,
    "approve",
    "--id",
    id,
    "--review",
    await approveReview(env.dir, sha),
    "--message",
    "x",
  );
  assert.equal(moved.code, 6);
  assert.equal((moved.json.error as { code: string }).code, "DIFF_CHANGED");
  await Deno.remove(env.dir, { recursive: true });
});
