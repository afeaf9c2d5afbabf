import assert from "node:assert/strict";
import { isSpotError } from "../errors.ts";
import { scoutJob as fixture } from "../tests/jobs/job_fixture.ts";
import {
  coordinatorAlive,
  createJob,
  holdCoordinator,
  jobDir,
  jobFile,
  loadJob,
  readEvents,
  taskLanded,
  updateJob,
} from "./store.ts";

Deno.test("a job is created queued, updated under its lock, and its events are kept", async () => {
  const { paths, job } = await fixture();
  await createJob(paths, job, "2025-01-01T00:00:00Z");
  assert.deepEqual((await loadJob(paths, job.jobId)).state.tasks, { s: { state: "queued" } });
  await updateJob(paths, job.jobId, (_, state) => ({
    state: { ...state, tasks: { s: { state: "running", runId: "r-1" } } },
  }));
  assert.equal((await loadJob(paths, job.jobId)).state.tasks.s.runId, "r-1");
  assert.deepEqual((await readEvents(paths, job.jobId)).map((e) => e.state), ["created"]);
  await assert.rejects(loadJob(paths, "job-none"), (e) => isSpotError(e, "JOB_NOT_FOUND"));
  assert.throws(() => jobDir(paths, "../x"), (e) => isSpotError(e, "JOB_NOT_FOUND"));
});

Deno.test("one coordinator per job: a second is refused while the first holds it", async () => {
  const { paths, job } = await fixture();
  await createJob(paths, job, "2025-01-01T00:00:00Z");
  assert.equal(await coordinatorAlive(paths, job.jobId), false);
  const held = await holdCoordinator(paths, job.jobId);
  assert.equal(await coordinatorAlive(paths, job.jobId), true);
  await assert.rejects(holdCoordinator(paths, job.jobId), (e) => isSpotError(e, "JOB_RUNNING"));
  held.release();
  assert.equal(await coordinatorAlive(paths, job.jobId), false);
});

Deno.test("a coordinator starting while a status probe tests the lock still takes the job", async () => {
  const { paths, job } = await fixture();
  await createJob(paths, job, "2025-01-01T00:00:00Z");
  // A probe's moment, made long enough to be sure to overlap: the lock is taken for 100 ms, then let go.
  const probe = await Deno.open(jobFile(paths, job.jobId, "coordinator.lock"), { write: true, create: true });
  assert.equal(await probe.tryLock(true), true);
  setTimeout(() => probe.close(), 100);
  const held = await holdCoordinator(paths, job.jobId);
  assert.equal(await coordinatorAlive(paths, job.jobId), true);
  held.release();
  // With no time to try again, the same moment refuses it: what a starting coordinator met before.
  const again = await Deno.open(jobFile(paths, job.jobId, "coordinator.lock"), { write: true });
  assert.equal(await again.tryLock(true), true);
  await assert.rejects(holdCoordinator(paths, job.jobId, 0), (e) => isSpotError(e, "JOB_RUNNING"));
  again.close();
});

Deno.test("taskLanded() holds for a builder's run in a standing landing only", () => {
  const integration = {
    mode: "commit" as const,
    at: "t",
    commits: [{ task: "api", runId: "j.api-a2", commit: "c" }],
    integratedChecks: "none" as const,
  };
  const tasks = { api: { state: "succeeded" as const, runId: "j.api-a2" } };
  assert.equal(taskLanded({ integration, tasks }, "api"), true);
  assert.equal(taskLanded({ integration, tasks }, "api", "j.api"), false, "an earlier attempt did not land");
  assert.equal(taskLanded({ tasks }, "api"), false, "nothing landed");
  assert.equal(taskLanded({ integration: { ...integration, rolledBackAt: "t2" }, tasks }, "api"), false);
  const applied = { mode: "apply" as const, at: "t", files: ["a"], integratedChecks: "none" as const };
  assert.equal(taskLanded({ integration: { ...applied, builders: [] }, tasks }, "api"), false);
  assert.equal(
    taskLanded({ integration: applied, tasks }, "api"),
    true,
    "a record from before builders were kept",
  );
});
