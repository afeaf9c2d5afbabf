/**
 * `spot job unlock` and `spot job cleanup` through the CLI with the replay worker: both are refused while the
 * coordinator runs; cleanup removes what is safe and retains, untouched and with the reason, a builder's
 * un-integrated work, a run another process holds and a worktree with changes spot did not record.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot } from "../helpers.ts";
import {
  approve,
  code,
  episode,
  fourTasks,
  init,
  replay,
  result,
  runToEnd,
  setup,
  task,
  write,
} from "./helpers.ts";
import {
  branchExists,
  details,
  exists,
  gate,
  holdLock,
  jobPath,
  ok,
  readJson,
  runState,
  waitFor,
} from "./admin_helpers.ts";

type Out = { task: string; runId: string; reason?: string; branchRemoved?: boolean };
const ids = (list: unknown) => (list as Out[]).map((r) => r.task);
const found = (summary: string) => result({ summary, brief: summary });

Deno.test("job unlock and cleanup are refused while the coordinator runs; the running task's worktree stays", async () => {
  const { env, repo } = await setup();
  const g = gate(env.dir);
  const tasks = [
    task("scout", "scout", { model: replay(await episode(env.dir, "scout", [g.wait, found("x")])) }),
  ];
  const jobId = String(ok(await init(env, repo, { tasks })).jobId);
  ok(await spot(env, repo, "job", "start", jobId));
  const runId = `${jobId}.scout`;
  await waitFor("the scout's worker", () => exists(join(env.stateDir, "runs", runId, "prompt-run-r0.md")));
  const worktree = (await runState(env, runId)).worktreePath;
  const pid = (await readJson(jobPath(env, jobId, "state.json"))).coordinator.pid;

  const unlock = await spot(env, repo, "job", "unlock", jobId);
  assert.equal(unlock.code, 5, unlock.stdout + unlock.stderr);
  assert.equal(code(unlock), "JOB_RUNNING");
  assert.equal(details(unlock).pid, pid);
  for (const args of [[], ["--confirm"]]) {
    const refused = await spot(env, repo, "job", "cleanup", jobId, ...args);
    assert.equal(code(refused), "JOB_RUNNING", refused.stdout + refused.stderr);
  }
  assert.ok(await exists(worktree), "cleanup removed a running task's worktree");
  assert.equal(
    (await readJson(jobPath(env, jobId, "state.json"))).coordinator.pid,
    pid,
    "unlock cleared a live record",
  );

  await g.open();
  ok(await spot(env, repo, "job", "wait", jobId, "--timeout-ms", "120000"));
  // wait returns once every task is recorded; the coordinator exits a moment later.
  await waitFor(
    "the coordinator to exit",
    async () => !(ok(await spot(env, repo, "job", "status", jobId)).coordinatorAlive as boolean),
  );
  // The coordinator has exited normally: its lock went with it and it took its record along, so unlock
  // finds nothing to clear (a killed coordinator's record is graphs/admin/unlock_test.ts's case).
  assert.equal((await readJson(jobPath(env, jobId, "state.json"))).coordinator, undefined);
  const after = ok(await spot(env, repo, "job", "unlock", jobId));
  assert.equal(after.unlocked, false);
  assert.equal(after.stalePid, undefined);
  // And now cleanup does what it refused to: the test above would have seen the worktree go.
  assert.deepEqual(ids(ok(await spot(env, repo, "job", "cleanup", jobId, "--confirm")).removed), ["scout"]);
  assert.equal(await exists(worktree), false);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job cleanup keeps a succeeded builder's worktree and branch until the job is integrated", async () => {
  const { env, repo } = await setup();
  const tasks = await fourTasks(env.dir, [
    write("ui/y.ts", "export const y = 2;\n"),
    result({ summary: "y is 2", changedFiles: ["ui/y.ts"] }),
  ]);
  tasks[3] = task("review", "reviewer", {
    after: ["api", "ui"],
    model: replay(await episode(env.dir, "review", [approve("api", "ui")])),
  });
  const jobId = String(ok(await init(env, repo, { allowWrites: true, tasks })).jobId);
  ok(await runToEnd(env, repo, jobId));
  const runs = Object.fromEntries(
    await Promise.all(
      ["scout", "api", "ui", "review"].map(async (t) => [t, await runState(env, `${jobId}.${t}`)]),
    ),
  );

  const preview = ok(await spot(env, repo, "job", "cleanup", jobId));
  assert.equal(preview.confirm, false);
  assert.deepEqual(ids(preview.wouldRemove), ["scout", "review"]);
  assert.deepEqual(preview.removed, [], "a preview removed nothing, and says so");
  assert.deepEqual(
    (preview.wouldRemove as { branchWouldBeRemoved: boolean }[]).map((r) => r.branchWouldBeRemoved),
    [true, true],
  );
  assert.ok((preview.wouldRemove as Record<string, unknown>[]).every((r) => !("branchRemoved" in r)));
  assert.deepEqual(ids(preview.retained), ["api", "ui"]);
  for (const t of ["scout", "api", "ui", "review"]) {
    assert.ok(await exists(runs[t].worktreePath), `a preview removed ${t}`);
  }

  const done = ok(await spot(env, repo, "job", "cleanup", jobId, "--confirm"));
  assert.deepEqual(ids(done.removed), ["scout", "review"]);
  for (const r of done.retained as Out[]) assert.match(r.reason!, /succeeded but is not landed/, r.task);
  for (const t of ["scout", "review"]) {
    assert.equal(await exists(runs[t].worktreePath), false, t);
    assert.equal(await branchExists(repo, runs[t].workerBranch), false, t);
    assert.ok(
      await exists(join(env.stateDir, "runs", `${jobId}.${t}`, "state.json")),
      "the run directory went",
    );
  }
  for (const t of ["api", "ui"]) {
    assert.ok(
      await exists(join(runs[t].worktreePath, `${t}/${t === "api" ? "x" : "y"}.ts`)),
      `${t} lost its work`,
    );
    assert.ok(await branchExists(repo, runs[t].workerBranch), `${t} lost its branch`);
  }

  // Once the job is integrated, the same builders go: the retention above was the rule, not an accident.
  ok(await spot(env, repo, "job", "integrate", jobId));
  const after = ok(await spot(env, repo, "job", "cleanup", jobId, "--confirm"));
  assert.deepEqual(ids(after.removed), ["api", "ui"]);
  assert.deepEqual(after.retained, []);
  for (const t of ["api", "ui"]) {
    assert.equal(await exists(runs[t].worktreePath), false, t);
    assert.equal(await branchExists(repo, runs[t].workerBranch), false, t);
    assert.ok(
      await exists(join(env.stateDir, "runs", `${jobId}.${t}`, "report.md")),
      "no report before cleanup",
    );
  }
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job cleanup retains a run another process holds and a worktree with unrecorded changes; a failed task's run goes", async () => {
  const { env, repo } = await setup();
  const tasks = [
    task("a", "scout", { model: replay(await episode(env.dir, "a", [found("a looked")])) }),
    task("b", "scout", { model: replay(await episode(env.dir, "b", [found("b looked")])) }),
    // A scout that writes fails (OWNERSHIP_VIOLATED) with the file it wrote recorded.
    task("c", "scout", { model: replay(await episode(env.dir, "c", [write("c.md", "c\n"), found("c")])) }),
  ];
  const jobId = String(ok(await init(env, repo, { tasks })).jobId);
  assert.equal(code(await runToEnd(env, repo, jobId)), "JOB_FAILED");
  const [a, b, c] = await Promise.all(["a", "b", "c"].map((t) => runState(env, `${jobId}.${t}`)));
  const held = await holdLock(join(env.stateDir, "runs", a.runId, ".lock"));
  await Deno.writeTextFile(join(b.worktreePath, "scratch.txt"), "mine\n");

  const done = ok(await spot(env, repo, "job", "cleanup", jobId, "--confirm"));
  const retained = done.retained as Out[];
  assert.deepEqual(ids(retained), ["a", "b"]);
  assert.match(retained[0].reason!, /^RUN_LOCKED/);
  assert.match(retained[1].reason!, /changes spot did not record: scratch\.txt$/);
  assert.ok(await exists(a.worktreePath), "a held run lost its worktree");
  assert.ok(await exists(join(b.worktreePath, "scratch.txt")), "unrecorded work was removed");
  // The failed task's run is cleaned; spot cleanup keeps the branch of a run that was not integrated.
  assert.deepEqual(done.removed, [{
    task: "c",
    runId: c.runId,
    worktree: c.worktreePath,
    branch: c.workerBranch,
    branchRemoved: false,
  }]);
  assert.equal(await exists(c.worktreePath), false);

  held.release();
  await Deno.remove(join(b.worktreePath, "scratch.txt"));
  const after = ok(await spot(env, repo, "job", "cleanup", jobId, "--confirm"));
  assert.deepEqual(ids(after.removed), ["a", "b"]);
  assert.equal(await exists(a.worktreePath), false);
  await Deno.remove(env.dir, { recursive: true });
});
