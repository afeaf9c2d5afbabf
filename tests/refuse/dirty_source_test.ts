/**
 * The README's loop keeps the contract and the review file in the repository. Those are spot's own input
 * files, not the user's uncommitted work: they no longer make the source dirty, so the run integrates. Real
 * uncommitted work is said in words at prepare (integrate will refuse, and how to avoid it). A worker cannot
 * use the exception: the escape check watches each input file's content.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sh, spot, spotEnv, writeEpisode, writeJson } from "../helpers.ts";
import { ADD_TEST, BUGGY_ADD, FIXED_ADD } from "../scenario.ts";
import { makeRepo } from "../helpers.ts";

const WRONG_ADD = "export function add(a: number, b: number): number {\n  return a * b;\n}\n";

const TASK = {
  schemaVersion: 1,
  goal: "Fix add() so that it returns the sum of its two arguments",
  allowedPaths: ["add.ts"],
  lockedPaths: ["add_test.ts"],
  acceptanceCriteria: ["add(2, 3) returns 5"],
  verification: [{ argv: ["deno", "test", "--no-config", "--no-lock", "add_test.ts"], timeoutSeconds: 120 }],
  risk: "low",
  difficulty: "low",
};

async function review(file: string, verdict: "approve" | "revise", diffSha256: string): Promise<void> {
  const finding = {
    priority: "P1",
    file: "add.ts",
    line: 2,
    problem: "multiplies",
    evidence: "add(2, 3) is 6",
    requiredChange: "add",
  };
  await writeJson(file, {
    schemaVersion: 1,
    verdict,
    diffSha256,
    findings: verdict === "revise" ? [finding] : [],
    verificationGaps: [],
    summary: verdict === "revise" ? "wrong operator" : "checks pass",
  });
}

Deno.test("the contract, episode and review files kept in the repository do not stop integration", async () => {
  const env = await spotEnv({ selfReview: { enabled: false } });
  const repo = await makeRepo({ "add.ts": BUGGY_ADD, "add_test.ts": ADD_TEST }, env.dir);
  await writeJson(join(repo, "task.json"), TASK);
  await writeEpisode(join(repo, "fix.jsonl"), [
    { op: "write", path: "add.ts", content: WRONG_ADD },
    { op: "write", phase: "revise", path: "add.ts", content: FIXED_ADD },
  ]);
  const prep = await spot(
    env,
    repo,
    "prepare",
    "--task",
    "task.json",
    "--profile",
    "replay",
    "--model",
    "fix.jsonl",
    "--sandbox",
    "none",
  );
  assert.equal(prep.code, 0, prep.stderr);
  assert.equal(prep.json.sourceDirty, false, "spot's own files are not the user's uncommitted work");
  assert.equal(prep.json.warnings, undefined);
  const id = String(prep.json.runId);
  assert.equal((await spot(env, repo, "run", "--id", id)).code, 0);
  const first = await spot(env, repo, "verify", "--id", id);
  assert.equal(first.json.passed, false, first.stderr);
  // The review file lives in the repository too, written between worker turns.
  await review(join(repo, "review.json"), "revise", String(first.json.diffSha256));
  const revise = await spot(env, repo, "revise", "--id", id, "--review", "review.json");
  assert.equal(revise.code, 0, `the review file is not an escape: ${revise.stderr}`);
  const second = await spot(env, repo, "verify", "--id", id);
  assert.equal(second.json.passed, true, second.stderr);
  await review(join(repo, "review.json"), "approve", String(second.json.diffSha256));
  const approve = await spot(
    env,
    repo,
    "approve",
    "--id",
    id,
    "--review",
    "review.json",
    "--message",
    "Fix add",
  );
  assert.equal(approve.code, 0, approve.stderr);
  const integrate = await spot(env, repo, "integrate", "--id", id);
  assert.equal(integrate.code, 0, integrate.stderr);
  assert.equal(integrate.json.status, "integrated");
  assert.equal(await Deno.readTextFile(join(repo, "add.ts")), FIXED_ADD);
  assert.match(await sh(repo, "git", "status", "--porcelain"), /\?\? review\.json/, "the user's files stay");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("real uncommitted work is said in words at prepare: integrate will refuse, and how to avoid it", async () => {
  const env = await spotEnv();
  const repo = await makeRepo(
    { "add.ts": BUGGY_ADD, "add_test.ts": ADD_TEST, "README.md": "# r\n" },
    env.dir,
  );
  await writeJson(join(repo, "task.json"), TASK);
  await writeEpisode(join(repo, "fix.jsonl"), [{ op: "write", path: "add.ts", content: FIXED_ADD }]);
  await Deno.writeTextFile(join(repo, "README.md"), "# r, edited by the user\n");
  const prep = await spot(
    env,
    repo,
    "prepare",
    "--task",
    "task.json",
    "--profile",
    "replay",
    "--model",
    "fix.jsonl",
    "--sandbox",
    "none",
  );
  assert.equal(prep.code, 0, prep.stderr);
  assert.equal(prep.json.sourceDirty, true);
  const [warning] = prep.json.warnings as string[];
  assert.match(warning, /uncommitted changes \(README\.md\)/);
  assert.match(warning, /integrate will refuse to land this run/);
  assert.match(warning, /commit or stash them \(or list them in \.git\/info\/exclude\) and prepare again/);
  assert.doesNotMatch(warning, /uncommitted changes \([^)]*(task\.json|fix\.jsonl)/);
  assert.match(warning, /are not counted: fix\.jsonl, task\.json/);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a worker that rewrites an input file in the user's checkout is caught by the escape check", async () => {
  const env = await spotEnv();
  const repo = await makeRepo({ "add.ts": BUGGY_ADD, "add_test.ts": ADD_TEST }, env.dir);
  const taskFile = join(repo, "task.json");
  await writeJson(taskFile, TASK);
  // Without an OS sandbox the worker can reach the checkout; it edits the contract it was excluded from.
  await writeEpisode(join(env.dir, "sly.jsonl"), [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "exec", argv: ["sh", "-c", `printf '{}' > '${taskFile}'`] },
  ]);
  const prep = await spot(
    env,
    repo,
    "prepare",
    "--task",
    "task.json",
    "--profile",
    "replay",
    "--model",
    join(env.dir, "sly.jsonl"),
    "--sandbox",
    "none",
  );
  assert.equal(prep.code, 0, prep.stderr);
  const run = await spot(env, repo, "run", "--id", String(prep.json.runId));
  assert.equal(run.code, 4, run.stderr);
  const error = run.json.error as { code: string; message: string };
  assert.equal(error.code, "ESCAPED_WORKTREE");
  assert.match(error.message, /task\.json, an input file spot read from the source checkout, changed/);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("the next task in the same repository is not dirtied by the last run's review file and episode", async () => {
  const env = await spotEnv({ selfReview: { enabled: false } });
  const repo = await makeRepo({ "add.ts": BUGGY_ADD, "add_test.ts": ADD_TEST }, env.dir);
  const loop = async (taskFile: string, episode: string, content: string) => {
    const prep = await spot(
      env,
      repo,
      "prepare",
      "--task",
      taskFile,
      "--profile",
      "replay",
      "--model",
      episode,
    );
    assert.equal(prep.code, 0, prep.stderr);
    const id = String(prep.json.runId);
    assert.equal((await spot(env, repo, "run", "--id", id)).code, 0);
    const verify = await spot(env, repo, "verify", "--id", id);
    assert.equal(verify.json.passed, true, verify.stderr);
    // The parent writes this run's review over the last run's, in the repository, as the README's loop does.
    await review(join(repo, "review.json"), "approve", String(verify.json.diffSha256));
    const approve = await spot(env, repo, "approve", "--id", id, "--review", "review.json", "--message", "m");
    assert.equal(approve.code, 0, approve.stderr);
    const integrate = await spot(env, repo, "integrate", "--id", id);
    assert.equal(integrate.code, 0, integrate.stderr);
    assert.equal(await Deno.readTextFile(join(repo, "add.ts")), content);
    return prep.json;
  };
  await writeJson(join(repo, "task.json"), TASK);
  await writeEpisode(join(repo, "fix.jsonl"), [{ op: "write", path: "add.ts", content: FIXED_ADD }]);
  await loop("task.json", "fix.jsonl", FIXED_ADD);
  // The second task: its own contract and an episode outside the repository; review.json and fix.jsonl stay.
  const DOC_ADD = `/** Adds. */\n${FIXED_ADD}`;
  await writeJson(join(repo, "task2.json"), { ...TASK, goal: "Document add()" });
  await writeEpisode(join(env.dir, "doc.jsonl"), [{ op: "write", path: "add.ts", content: DOC_ADD }]);
  const second = await loop("task2.json", join(env.dir, "doc.jsonl"), DOC_ADD);
  assert.equal(second.sourceDirty, false, "the last run's files are spot's, not the user's work");
  assert.equal(second.warnings, undefined);
  // Real work beside them is still real work.
  await Deno.writeTextFile(join(repo, "notes.txt"), "mine\n");
  const third = await spot(
    env,
    repo,
    "prepare",
    "--task",
    "task2.json",
    "--profile",
    "replay",
    "--model",
    "fix.jsonl",
  );
  assert.equal(third.json.sourceDirty, true, third.stderr);
  assert.match((third.json.warnings as string[])[0], /uncommitted changes \(notes\.txt\)/);
  await Deno.remove(env.dir, { recursive: true });
});
