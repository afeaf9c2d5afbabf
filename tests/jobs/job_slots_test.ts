/**
 * A job with more builders than run slots: builders that succeeded wait for integration without holding a
 * slot of maxConcurrentRuns, and a task started beyond the free slots waits instead of failing, so the job
 * finishes; without either it would wait forever (or fail CONCURRENCY_LIMIT).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { JobState } from "../../graphs/store.ts";
import { makeRepo, spot, spotEnv } from "../helpers.ts";
import { episode, FILES, init, replay, result, task, waitToEnd, write } from "./helpers.ts";

Deno.test("job slots: four builders under maxConcurrentRuns 2 all run and succeed", async () => {
  const env = await spotEnv({ maxConcurrentRuns: 2, sandbox: "none" });
  const repo = await makeRepo(FILES, env.dir);
  const builder = async (id: string) =>
    task(id, "builder", {
      ownership: [`${id}.txt`],
      noChecksReason: "a new file",
      model: replay(
        await episode(env.dir, id, [
          write(`${id}.txt`, `${id}\n`),
          result({ summary: "written", changedFiles: [`${id}.txt`] }),
        ]),
      ),
    });
  const created = await init(env, repo, {
    allowWrites: true,
    config: { limits: { concurrency: 4 } },
    tasks: [await builder("b1"), await builder("b2"), await builder("b3"), await builder("b4")],
  });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  assert.equal((await spot(env, repo, "job", "start", jobId)).code, 0);
  const done = await waitToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const state = JSON.parse(
    await Deno.readTextFile(join(env.stateDir, "jobs", jobId, "state.json")),
  ) as JobState;
  for (const id of ["b1", "b2", "b3", "b4"]) {
    assert.equal(state.tasks[id].state, "succeeded", `${id}: ${state.tasks[id].reason}`);
    const run = JSON.parse(
      await Deno.readTextFile(join(env.stateDir, "runs", `${jobId}.${id}`, "state.json")),
    );
    assert.equal(run.awaitingJob, jobId);
  }
  await Deno.remove(env.dir, { recursive: true });
});
