import assert from "node:assert/strict";
import { isSpotError } from "../../errors.ts";
import type { SpotContext } from "../../store/context.ts";
import { scoutJob } from "../../tests/jobs/job_fixture.ts";
import { createJob, holdCoordinator, loadJob, readEvents, updateJob } from "../store.ts";
import { unlockJob } from "./unlock.ts";

async function fixture() {
  const { dir, paths, job } = await scoutJob();
  await createJob(paths, job, "2025-01-01T00:00:00Z");
  const ctx = { paths, now: () => "2025-01-01T00:01:00Z" } as unknown as SpotContext;
  return { dir, ctx, jobId: job.jobId };
}

Deno.test("job unlock clears the record a killed coordinator left, once, and is refused while one holds the job", async () => {
  const { dir, ctx, jobId } = await fixture();
  // What kill -9 leaves: a record naming a pid, and no lock (the kernel dropped it with the process).
  await updateJob(ctx.paths, jobId, (_, s) => ({
    state: { ...s, status: "running", coordinator: { pid: 999_999, startedAt: "2025-01-01T00:00:30Z" } },
  }));
  const held = await holdCoordinator(ctx.paths, jobId);
  await assert.rejects(unlockJob(ctx, jobId), (e) => isSpotError(e, "JOB_RUNNING"));
  held.release();
  assert.deepEqual(await unlockJob(ctx, jobId), { jobId, unlocked: true, stalePid: 999_999 });
  assert.equal((await loadJob(ctx.paths, jobId)).state.coordinator, undefined);
  assert.match((await readEvents(ctx.paths, jobId)).at(-1)?.reason ?? "", /coordinator pid 999999/);
  assert.deepEqual(await unlockJob(ctx, jobId), { jobId, unlocked: false });
  await Deno.remove(dir, { recursive: true });
});
