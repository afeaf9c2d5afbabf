/**
 * `spot job integrate` in commit mode through the CLI with the replay worker: the four-task graph lands both
 * builders on the source branch in `after` order and runs the job's integratedChecks; a reviewer that echoes
 * a stale fingerprint is refused with REVIEW_STALE and nothing lands.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sh, spot } from "../helpers.ts";
import {
  approve,
  code,
  episode,
  FILES,
  fourTasks,
  init,
  replay,
  result,
  runToEnd,
  setup,
  task,
  write,
} from "./helpers.ts";

async function graph(reviewer: Record<string, unknown>[]) {
  const { env, repo } = await setup();
  const tasks = await fourTasks(env.dir, [
    write("ui/y.ts", "export const y = 2;\n"),
    result({ summary: "y is 2", changedFiles: ["ui/y.ts"] }),
  ]);
  tasks[3] = task("review", "reviewer", {
    after: ["api", "ui"],
    model: replay(await episode(env.dir, "review", reviewer)),
  });
  const created = await init(env, repo, {
    allowWrites: true,
    tasks,
    integratedChecks: [{ id: "both", argv: ["grep", "-rq", "y = 2", "ui"] }],
  });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const head = (await sh(repo, "git", "rev-parse", "HEAD")).trim();
  return { env, repo, jobId, head, integrated: await spot(env, repo, "job", "integrate", jobId) };
}

const runStatus = async (stateDir: string, runId: string) =>
  JSON.parse(await Deno.readTextFile(join(stateDir, "runs", runId, "state.json"))).status;

Deno.test("job integrate: the four-task graph lands each builder in after order, then its integratedChecks", async () => {
  const g = await graph([approve("api", "ui")]);
  assert.equal(g.integrated.code, 0, g.integrated.stdout + g.integrated.stderr);
  const commits = g.integrated.json.commits as { task: string; commit: string }[];
  assert.deepEqual(commits.map((c) => c.task), ["api", "ui"]);
  assert.equal(g.integrated.json.integratedChecks, "passed");
  const log = (await sh(g.repo, "git", "log", "--format=%H", `${g.head}..HEAD`)).trim().split("\n").reverse();
  assert.deepEqual(log, commits.map((c) => c.commit));
  assert.equal(await Deno.readTextFile(join(g.repo, "api/x.ts")), "export const x = 2;\n");
  assert.equal(await Deno.readTextFile(join(g.repo, "ui/y.ts")), "export const y = 2;\n");
  assert.equal((await sh(g.repo, "git", "status", "--porcelain")).trim(), "");
  // Every task's run has ended: none holds a slot of maxConcurrentRuns any more. The builders landed; the
  // read-only scout and reviewer succeeded with nothing to land, and never show as integrated.
  for (const id of ["api", "ui"]) {
    assert.equal(await runStatus(g.env.stateDir, `${g.jobId}.${id}`), "integrated", id);
  }
  for (const id of ["scout", "review"]) {
    assert.equal(await runStatus(g.env.stateDir, `${g.jobId}.${id}`), "succeeded", id);
  }
  const again = await spot(g.env, g.repo, "job", "integrate", g.jobId);
  assert.deepEqual(again.json.commits, g.integrated.json.commits, "integrating again changes nothing");
  // Commit mode has no rollback: the refusal says so and names the commits to revert, newest first.
  const back = await spot(g.env, g.repo, "job", "rollback", g.jobId);
  assert.equal(code(back), "ROLLBACK_REFUSED", back.stdout + back.stderr);
  const error = back.json.error as { message: string; details: { nextCommand: string } };
  assert.match(error.message, /commit mode, which has no rollback/);
  assert.equal(
    error.details.nextCommand,
    `git revert --no-edit ${[...commits].reverse().map((c) => c.commit).join(" ")}`,
  );
  await Deno.remove(g.env.dir, { recursive: true });
});

Deno.test("job integrate: a reviewer echoing a stale fingerprint is refused with REVIEW_STALE", async () => {
  const stale = "0".repeat(64);
  const g = await graph([result({
    summary: "looks right",
    review: [
      { taskId: "api", fingerprint: "{{fingerprint:api}}", verdict: "approve" },
      { taskId: "ui", fingerprint: stale, verdict: "approve" },
    ],
  })]);
  assert.equal(code(g.integrated), "REVIEW_STALE", g.integrated.stdout + g.integrated.stderr);
  assert.equal(g.integrated.code, 4);
  assert.match((g.integrated.json.error as { message: string }).message, /builder "ui": reviewer "review"/);
  assert.equal((await sh(g.repo, "git", "rev-parse", "HEAD")).trim(), g.head, "something landed");
  assert.equal(await Deno.readTextFile(join(g.repo, "api/x.ts")), FILES["api/x.ts"]);
  await Deno.remove(g.env.dir, { recursive: true });
});
