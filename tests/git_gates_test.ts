/** Git-level gates: hidden edits, out-of-scope writes, dirty sources, and a source that moved. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { demoScenario, FIXED_ADD, prepareScenario } from "./scenario.ts";
import { processAlive } from "../sandbox/spawn.ts";
import { sh, spot, spotEnv, writeJson } from "./helpers.ts";

async function loopToCommitted(
  env: Awaited<ReturnType<typeof spotEnv>>,
  repo: string,
  taskFile: string,
  episode: string,
) {
  const id = String(
    (await spot(env, repo, "prepare", "--task", taskFile, "--profile", "replay", "--model", episode)).json
      .runId,
  );
  await spot(env, repo, "run", "--id", id);
  const verify = await spot(env, repo, "verify", "--id", id);
  const review = join(env.dir, `review-${id}.json`);
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: verify.json.diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "ok",
  });
  const approve = await spot(env, repo, "approve", "--id", id, "--review", review, "--message", "Fix add()");
  assert.equal(approve.code, 0, approve.stderr);
  return id;
}

Deno.test("update-index --assume-unchanged cannot hide an edit from the diff", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [
    { op: "exec", argv: ["git", "update-index", "--assume-unchanged", "add.ts"] },
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "exec", argv: ["git", "update-index", "--skip-worktree", "README.md"] },
    { op: "write", path: "README.md", content: "# changed behind git's back\n" },
  ]);
  // The gate itself is under test: bwrap would stop the index edit before it could hide anything.
  const id = await prepareScenario(env, sc, "--sandbox", "none");
  await spot(env, sc.repo, "run", "--id", id);
  const worktree =
    JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "state.json"))).worktreePath;
  // Plain git in the worktree is fooled: it reports no change at all.
  assert.equal(await sh(worktree, "git", "status", "--porcelain"), "");
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  // spot is not: README.md is outside allowedPaths, so the hidden edit blocks the run.
  assert.equal(verify.code, 4, verify.stderr);
  const error = verify.json.error as { code: string; details: { issues: { code: string; file?: string }[] } };
  assert.equal(error.code, "SECURITY_BLOCKED");
  assert.deepEqual(error.details.issues.map((i) => [i.code, i.file]), [["PATH_OUT_OF_SCOPE", "README.md"]]);
  const patch = await Deno.readTextFile(join(env.stateDir, "runs", id, "diff.patch"));
  assert.match(patch, /\+ {2}return a \+ b;/);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a dirty source is snapshotted into the worktree without touching the user's index", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  await Deno.writeTextFile(join(sc.repo, "README.md"), "# demo, edited by the user\n");
  await Deno.writeTextFile(join(sc.repo, "notes.txt"), "untracked user notes\n");
  await sh(sc.repo, "git", "add", "README.md");
  const indexBefore = await Deno.readFile(join(sc.repo, ".git", "index"));
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
  assert.equal(prep.json.sourceDirty, true);
  const worktree = String(prep.json.worktreePath);
  assert.equal(await Deno.readTextFile(join(worktree, "notes.txt")), "untracked user notes\n");
  assert.equal(await Deno.readTextFile(join(worktree, "README.md")), "# demo, edited by the user\n");
  assert.equal(
    await sh(worktree, "git", "log", "-1", "--format=%s"),
    `chore(spot): snapshot source ${prep.json.runId}`,
  );
  assert.deepEqual(await Deno.readFile(join(sc.repo, ".git", "index")), indexBefore);
  assert.equal(await sh(sc.repo, "git", "status", "--porcelain"), "M  README.md\n?? notes.txt".trim());

  // The worker's delta is judged against the snapshot, so the user's edits are not the worker's.
  const id = String(prep.json.runId);
  await spot(env, sc.repo, "run", "--id", id);
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(verify.json.passed, true, verify.stderr);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("integrate blocks when the user changed the source after prepare, and keeps the work", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const id = await loopToCommitted(env, sc.repo, sc.taskFile, sc.episodeFile);
  await Deno.writeTextFile(join(sc.repo, "README.md"), "# user typing while the worker ran\n");
  const integrate = await spot(env, sc.repo, "integrate", "--id", id);
  assert.equal(integrate.code, 4, integrate.stderr);
  // The same cause as at verify and approve, with the same code.
  assert.equal((integrate.json.error as { code: string }).code, "SOURCE_CHANGED");
  assert.match(await Deno.readTextFile(join(sc.repo, "add.ts")), /a - b/, "nothing landed");
  assert.match(await sh(sc.repo, "git", "log", "-1", "--format=%B", `pi-worker/${id}`), /Pi-Worker-Run/);
  const cleanup = await spot(env, sc.repo, "cleanup", "--id", id);
  assert.equal(cleanup.json.retainedBranch, `pi-worker/${id}`);
  assert.match(await sh(sc.repo, "git", "branch", "--list", `pi-worker/${id}`), /pi-worker/);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("integrate blocks when HEAD moved, and approve blocks when the source changed before it", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const id = await loopToCommitted(env, sc.repo, sc.taskFile, sc.episodeFile);
  await sh(sc.repo, "git", "commit", "-q", "--allow-empty", "-m", "user moved on");
  const moved = await sh(sc.repo, "git", "rev-parse", "HEAD");
  const integrate = await spot(env, sc.repo, "integrate", "--id", id);
  assert.equal(integrate.code, 4);
  const error = integrate.json.error as {
    code: string;
    message: string;
    details: { source: { before: { head: string }; now: { head: string } }; hint: string };
  };
  assert.equal(error.code, "SOURCE_CHANGED");
  assert.match(error.message, /HEAD moved/);
  assert.equal(error.details.source.now.head, moved);
  assert.notEqual(error.details.source.before.head, moved);
  assert.match(error.details.hint, /git cherry-pick [0-9a-f]{12}/);

  const sc2 = await demoScenario(env.dir);
  const id2 = await prepareScenario(env, sc2);
  await spot(env, sc2.repo, "run", "--id", id2);
  const verify = await spot(env, sc2.repo, "verify", "--id", id2);
  await Deno.writeTextFile(join(sc2.repo, "add_test.ts"), "// the user rewrote the test\n");
  const review = join(env.dir, "r2.json");
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: verify.json.diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "ok",
  });
  const approve = await spot(env, sc2.repo, "approve", "--id", id2, "--review", review, "--message", "x");
  assert.equal((approve.json.error as { code: string }).code, "SOURCE_CHANGED");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("post-integration checks that fail on the landed result block the run and land nothing", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const id = await loopToCommitted(env, sc.repo, sc.taskFile, sc.episodeFile);
  // A check that passed at verify and fails at integration (the parent's contract changed in between).
  const task = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "task.json")));
  task.verification = [{ argv: ["sh", "-c", "test -e never-there.txt"], timeoutSeconds: 30 }];
  await Deno.writeTextFile(join(env.stateDir, "runs", id, "task.json"), JSON.stringify(task));
  const head = await sh(sc.repo, "git", "rev-parse", "HEAD");
  const integrate = await spot(env, sc.repo, "integrate", "--id", id);
  assert.equal(integrate.code, 4, integrate.stderr);
  const error = integrate.json.error as { code: string; message: string; details: { landed: boolean } };
  assert.equal(error.code, "POST_INTEGRATE_VERIFY_FAILED");
  assert.match(error.message, /nothing landed/);
  assert.equal(error.details.landed, false);
  assert.equal(await sh(sc.repo, "git", "rev-parse", "HEAD"), head, "the commit landed");
  assert.equal(await sh(sc.repo, "git", "status", "--porcelain"), "");
  assert.match(await sh(sc.repo, "git", "log", "-1", "--format=%B", `pi-worker/${id}`), /Pi-Worker-Run/);
  const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "state.json")));
  assert.equal(state.status, "blocked");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a check whose output overflows the capture limit blocks the run instead of passing", async () => {
  const env = await spotEnv({ limits: { maxCapturedCharsPerStream: 1000 } });
  const sc = await demoScenario(env.dir);
  const task = JSON.parse(await Deno.readTextFile(sc.taskFile));
  task.verification.push({ argv: ["sh", "-c", "yes spot | head -c 5000"], timeoutSeconds: 30 });
  await Deno.writeTextFile(sc.taskFile, JSON.stringify(task));
  const id = await prepareScenario(env, sc);
  await spot(env, sc.repo, "run", "--id", id);
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(verify.code, 4, verify.stderr);
  assert.equal((verify.json.error as { code: string }).code, "VERIFICATION_OUTPUT_TRUNCATED");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a check that outlives its timeout fails, and its process group is ended", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const task = JSON.parse(await Deno.readTextFile(sc.taskFile));
  task.verification = [{
    argv: ["sh", "-c", "sleep 120 & echo $! > ../sleeper.pid; wait"],
    timeoutSeconds: 1,
  }];
  await Deno.writeTextFile(sc.taskFile, JSON.stringify(task));
  // Host-side pids: under bwrap the check lives in its own PID namespace.
  const id = await prepareScenario(env, sc, "--sandbox", "none");
  await spot(env, sc.repo, "run", "--id", id);
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(verify.code, 0, verify.stderr);
  assert.equal(verify.json.passed, false);
  const v = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "verification.json")));
  assert.equal(v.commands[0].timedOut, true);
  // Checks run in a pristine tree under the cache; the script left its pid next to it.
  const sleeper = Number((await Deno.readTextFile(join(env.dir, "cache", "pristine", "sleeper.pid"))).trim());
  assert.ok(sleeper > 0);
  assert.equal(
    processAlive(sleeper),
    false,
    `the check's background process ${sleeper} survived the timeout`,
  );
  await Deno.remove(env.dir, { recursive: true });
});
