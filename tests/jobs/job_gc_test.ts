/**
 * `spot job gc` through the CLI with the replay worker: a settled job untouched for the window loses its task
 * worktrees and its job directory (a preview first); a job with a live coordinator, an un-integrated builder,
 * an apply-mode integration that can still be rolled back, or that cannot be read is kept, untouched.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sh, spot } from "../helpers.ts";
import { approve, episode, init, replay, result, runToEnd, setup, task, write } from "./helpers.ts";
import { age, branchExists, exists, holdLock, jobPath, ok, runState } from "./admin_helpers.ts";

type Kept = { jobId: string; reason: string; runs?: { task: string; reason: string }[] };
const jobsOf = (list: unknown) => (list as { jobId: string }[]).map((j) => j.jobId);
const keptOf = (out: Record<string, unknown>, jobId: string) =>
  (out.retained as Kept[]).find((k) => k.jobId === jobId);

Deno.test("job gc collects a settled job older than the window after a preview, and keeps one it cannot read", async () => {
  const { env, repo } = await setup();
  const tasks = [task("scout", "scout", {
    model: replay(await episode(env.dir, "scout", [result({ summary: "x", brief: "x" })])),
  })];
  // Uncommitted work: the job's base is a snapshot kept by a private ref, which goes with the job.
  await Deno.writeTextFile(join(repo, "notes.txt"), "mine\n");
  const jobId = String(ok(await init(env, repo, { tasks })).jobId);
  ok(await runToEnd(env, repo, jobId));
  const run = await runState(env, `${jobId}.scout`);
  const baseRef = () =>
    sh(repo, "git", "rev-parse", "--verify", "--quiet", `refs/spot/${jobId}/base`).catch(() => "");
  assert.match(await baseRef(), /^[0-9a-f]{40}/);
  const broken = jobPath(env, "job-broken");
  await Deno.mkdir(broken);
  await Deno.writeTextFile(join(broken, "state.json"), "{");

  const young = ok(await spot(env, repo, "job", "gc"));
  assert.deepEqual(young.wouldCollect, []);
  assert.match(keptOf(young, jobId)!.reason, /less than 7 days ago/);
  assert.match(keptOf(young, "job-broken")!.reason, /cannot be read/);

  await age(env, jobId, 8);
  const preview = ok(await spot(env, repo, "job", "gc"));
  assert.deepEqual(jobsOf(preview.wouldCollect), [jobId]);
  assert.deepEqual(preview.collected, [], "a preview collected nothing, and says so");
  assert.ok(
    await exists(jobPath(env, jobId)) && await exists(run.worktreePath),
    "a preview removed something",
  );

  const done = ok(await spot(env, repo, "job", "gc", "--confirm"));
  assert.deepEqual(jobsOf(done.collected), [jobId]);
  assert.deepEqual(jobsOf(done.retained), ["job-broken"]);
  assert.equal(await exists(jobPath(env, jobId)), false);
  assert.equal(await exists(run.worktreePath), false);
  assert.equal(await baseRef(), "", "the job's base ref stayed");
  assert.ok(await exists(join(env.stateDir, "runs", run.runId, "state.json")), "the run directory went");
  assert.ok(await exists(join(broken, "state.json")), "an unreadable job was removed");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job gc keeps a job whose coordinator holds it, and collects it once it lets go", async () => {
  const { env, repo } = await setup();
  const jobId = String(ok(await init(env, repo, { tasks: [task("s", "scout")] })).jobId);
  ok(await spot(env, repo, "job", "cancel", jobId));
  await age(env, jobId, 30);
  const held = await holdLock(jobPath(env, jobId, "coordinator.lock"));
  for (const args of [[], ["--confirm"]]) {
    const out = ok(await spot(env, repo, "job", "gc", ...args));
    assert.equal(keptOf(out, jobId)?.reason, "its coordinator is running", args.join(" "));
  }
  assert.ok(await exists(jobPath(env, jobId, "state.json")), "a held job was collected");
  held.release();
  assert.deepEqual(jobsOf(ok(await spot(env, repo, "job", "gc", "--confirm")).collected), [jobId]);
  assert.equal(await exists(jobPath(env, jobId)), false);
  await Deno.remove(env.dir, { recursive: true });
});

async function builderJob(integration?: "apply") {
  const { env, repo } = await setup();
  const tasks = [
    task("api", "builder", {
      ownership: ["api"],
      noChecksReason: "a constant",
      model: replay(
        await episode(env.dir, "api", [
          write("api/x.ts", "export const x = 2;\n"),
          result({ summary: "x is 2", changedFiles: ["api/x.ts"] }),
        ]),
      ),
    }),
    task("review", "reviewer", {
      after: ["api"],
      model: replay(await episode(env.dir, "review", [approve("api")])),
    }),
  ];
  const config = integration ? { config: { integration } } : {};
  const jobId = String(ok(await init(env, repo, { allowWrites: true, tasks, ...config })).jobId);
  ok(await runToEnd(env, repo, jobId));
  return { env, repo, jobId, api: await runState(env, `${jobId}.api`) };
}

Deno.test("job gc keeps a job whose builder succeeded but was never integrated, with its branch and worktree", async () => {
  const { env, repo, jobId, api } = await builderJob();
  await age(env, jobId, 30);
  const out = ok(await spot(env, repo, "job", "gc", "--confirm"));
  const kept = keptOf(out, jobId)!;
  assert.deepEqual(kept.runs!.map((r) => r.task), ["api"]);
  assert.match(kept.runs![0].reason, /succeeded but is not landed/);
  assert.ok(await exists(jobPath(env, jobId, "state.json")), "the job directory went");
  assert.ok(await exists(join(api.worktreePath, "api/x.ts")), "the builder's worktree went");
  assert.ok(await branchExists(repo, api.workerBranch), "the builder's branch went");
  // Integrated, the same job goes: what kept it was the rule.
  ok(await spot(env, repo, "job", "integrate", jobId));
  const jobRefs = () => sh(repo, "git", "for-each-ref", "--format=%(refname)", `refs/spot/${jobId}/`);
  assert.match(
    await jobRefs(),
    new RegExp(`refs/spot/${jobId}/tasks/api`),
    "the builder's verified commit ref",
  );
  await age(env, jobId, 30);
  assert.deepEqual(jobsOf(ok(await spot(env, repo, "job", "gc", "--confirm")).collected), [jobId]);
  assert.equal(await branchExists(repo, api.workerBranch), false);
  assert.equal((await jobRefs()).trim(), "", "the job's private refs stayed behind it");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job gc keeps an apply-mode integration while it can be rolled back, and after a rollback the work it took out", async () => {
  const { env, repo, jobId } = await builderJob("apply");
  ok(await spot(env, repo, "job", "integrate", jobId));
  // The job looks old, but its integration happened just now: its journal is what rollback needs.
  await age(env, jobId, 30);
  const out = ok(await spot(env, repo, "job", "gc", "--confirm"));
  assert.match(keptOf(out, jobId)!.reason, /can still be rolled back/);
  assert.ok(await exists(jobPath(env, jobId, "integration", "journal.json")), "the journal went");
  // A window of zero days lets it go (a preview here); so does a rollback.
  const zero = ok(await spot(env, repo, "job", "gc", "--older-than-days", "0"));
  assert.deepEqual(jobsOf(zero.wouldCollect), [jobId]);
  ok(await spot(env, repo, "job", "rollback", jobId, "--confirm"));
  await age(env, jobId, 30);
  // Rolled back, the builder's work stands nowhere but in its worktree and branch: kept, as if never integrated.
  const after = ok(await spot(env, repo, "job", "gc", "--confirm"));
  assert.deepEqual(jobsOf(after.collected), []);
  const runs = keptOf(after, jobId)!.runs!;
  assert.deepEqual(runs.map((r) => r.task), ["api"]);
  assert.match(runs[0].reason, /succeeded but is not landed/);
  await Deno.remove(env.dir, { recursive: true });
});
