/**
 * A job on the fleet: three executors with their own state, cache, config and HOME (as if three machines) and one
 * origin, on a loopback nats-server. Twelve tasks (eleven builders and a reviewer) run on the executors; each is
 * taken over once and integrated once on the origin.
 */
import assert from "node:assert/strict";
import { machine, type RunningExecutor, startExecutor, stopExecutor } from "./fleet_helpers.ts";
import { assertOnceAndIntegrate, createJob, jobRepo, startJob, waitJob } from "./fleet_job.ts";
import { startNats } from "./nats_server.ts";

Deno.test({
  name: "fleet job: twelve tasks on three executors, each taken over once and integrated once",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const nats = await startNats();
    const executors: RunningExecutor[] = [];
    try {
      const origin = await machine("origin", nats.url, { maxConcurrentRuns: 16 });
      for (const name of ["e1", "e2", "e3"]) {
        executors.push(await startExecutor(await machine(name, nats.url), ["--capacity", "2"]));
      }
      const repo = await jobRepo(origin, 11);
      const jobId = await createJob(origin, repo, { builders: 11, sleepMs: { all: 300 } });
      const t0 = Date.now();
      await startJob(origin, repo, jobId);
      const done = await waitJob(origin, repo, jobId);
      console.log(`job took ${Date.now() - t0} ms`);
      assert.equal(done.code, 0, done.stdout + done.stderr);
      await assertOnceAndIntegrate(origin, repo, jobId, 11);
    } finally {
      for (const e of executors) await stopExecutor(e, "SIGINT");
      await nats.stop();
    }
  },
});
