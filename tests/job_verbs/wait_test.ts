/**
 * `spot job wait JOB` without `--timeout-ms` waits for the job to end (its limits.jobMs bounds it), and
 * `spot job integrate` on a job still running is a lifecycle refusal (STATE_INVALID, exit 6) that says to wait.
 */
import assert from "node:assert/strict";
import { spot } from "../helpers.ts";
import { approve, code, episode, init, replay, result, setup, task, write } from "../jobs/helpers.ts";

Deno.test("job wait: with no window it returns when the job ended; integrate while it runs says to wait", async () => {
  const { env, repo } = await setup();
  const tasks = [
    task("api", "builder", {
      ownership: ["api"],
      noChecksReason: "a constant",
      model: replay(
        await episode(env.dir, "api", [
          { op: "sleep", ms: 4000 },
          write("api/x.ts", "export const x = 2;\n"),
          result({ summary: "x is 2", changedFiles: ["api/x.ts"] }),
        ]),
      ),
    }),
    task("review", "reviewer", {
      after: ["api"],
      reviewOf: "api",
      model: replay(await episode(env.dir, "review", [approve("api")])),
    }),
  ];
  const created = await init(env, repo, { allowWrites: true, tasks });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const start = await spot(env, repo, "job", "start", jobId);
  assert.equal(start.code, 0, start.stderr);

  // A window given is kept: polling returns with waiting:true while the job runs.
  const polled = await spot(env, repo, "job", "wait", jobId, "--timeout-ms", "1500");
  assert.equal(polled.code, 0, polled.stderr);
  assert.equal(polled.json.waiting, true);
  assert.equal(polled.json.status, "running");

  const early = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(code(early), "STATE_INVALID", early.stdout + early.stderr);
  assert.equal(early.code, 6);
  const details = (early.json.error as { details: Record<string, unknown> }).details;
  assert.equal(details.nextCommand, `spot job wait ${jobId}`);

  const began = Date.now();
  const done = await spot(env, repo, "job", "wait", jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.equal(done.json.waiting, false, "wait returned before the job ended");
  assert.equal(done.json.status, "succeeded");
  assert.ok(Date.now() - began > 1000, "the job was still running when wait began");
  const landed = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(landed.code, 0, landed.stdout + landed.stderr);
  await Deno.remove(env.dir, { recursive: true });
});
