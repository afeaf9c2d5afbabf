import assert from "node:assert/strict";
import { isSpotError } from "../errors.ts";
import type { SpotContext } from "../store/context.ts";
import { scoutJob } from "../tests/jobs/job_fixture.ts";
import { createJob, holdCoordinator, updateJob } from "./store.ts";
import { waitJob } from "./admin/wait.ts";
import { barrierJob } from "./admin/barrier.ts";

async function fixture() {
  const { dir, paths, job } = await scoutJob();
  await createJob(paths, job, "2025-01-01T00:00:00Z");
  // `wait` reads only the job's files.
  return { dir, ctx: { paths } as unknown as SpotContext, jobId: job.jobId };
}

Deno.test("job wait on a job nobody started says so after its grace, instead of waiting out its timeout", async () => {
  const { dir, ctx, jobId } = await fixture();
  const started = Date.now();
  await assert.rejects(
    waitJob(ctx, jobId, { timeoutMs: 30_000, graceMs: 300 }),
    (e) => isSpotError(e, "JOB_NOT_RUNNING") && /created .*spot job start/.test(e.message),
  );
  assert.ok(Date.now() - started < 10_000, "it waited out the timeout");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("job wait on a running job whose coordinator is gone says to resume it", async () => {
  const { dir, ctx, jobId } = await fixture();
  await updateJob(ctx.paths, jobId, (_, state) => ({ state: { ...state, status: "running" } }));
  await assert.rejects(
    waitJob(ctx, jobId, { timeoutMs: 30_000, graceMs: 300 }),
    (e) => isSpotError(e, "JOB_NOT_RUNNING") && /spot job resume/.test(e.message),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("job wait keeps waiting while a coordinator holds the job, and returns at its timeout", async () => {
  const { dir, ctx, jobId } = await fixture();
  await updateJob(ctx.paths, jobId, (_, state) => ({ state: { ...state, status: "running" } }));
  const held = await holdCoordinator(ctx.paths, jobId);
  try {
    const r = await waitJob(ctx, jobId, { timeoutMs: 1_000, graceMs: 300 });
    assert.equal(r.waiting, true);
    assert.equal(r.coordinatorAlive, true);
  } finally {
    held.release();
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("job barrier on tasks of a job nobody coordinates says so after its grace", async () => {
  const { dir, ctx, jobId } = await fixture();
  await assert.rejects(
    barrierJob(ctx, jobId, ["s"], { timeoutMs: 30_000, graceMs: 300 }),
    (e) => isSpotError(e, "JOB_NOT_RUNNING"),
  );
  await Deno.remove(dir, { recursive: true });
});
