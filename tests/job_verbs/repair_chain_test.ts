/**
 * After an apply-mode rollback, `spot job repair` of the first builder of a chain requeues the builder that
 * built on it (its work rests on the old attempt) and the reviewer, and the job lands again.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot } from "../helpers.ts";
import {
  approve,
  episode,
  init,
  replay,
  result,
  runToEnd,
  setup,
  task,
  waitToEnd,
  write,
} from "../jobs/helpers.ts";

Deno.test("job repair after a rollback requeues the builders that built on the repaired one", async () => {
  const { env, repo } = await setup();
  const tasks = [
    task("lib", "builder", {
      ownership: ["api"],
      noChecksReason: "a constant",
      model: replay(
        await episode(env.dir, "lib", [
          write("api/x.ts", "export const x = 2;\n"),
          result({ summary: "x is 2", changedFiles: ["api/x.ts"] }),
        ]),
      ),
    }),
    task("app", "builder", {
      after: ["lib"],
      ownership: ["ui"],
      checks: [{ id: "x", argv: ["grep", "-q", "x = 2", "api/x.ts"] }],
      model: replay(
        await episode(env.dir, "app", [
          write("ui/y.ts", "export const y = 2;\n"),
          result({ summary: "y is 2", changedFiles: ["ui/y.ts"] }),
        ]),
      ),
    }),
    task("review", "reviewer", {
      after: ["lib", "app"],
      model: replay(await episode(env.dir, "review", [approve("lib", "app")])),
    }),
  ];
  const created = await init(env, repo, { allowWrites: true, tasks, config: { integration: "apply" } });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  assert.equal((await runToEnd(env, repo, jobId)).code, 0);
  assert.equal((await spot(env, repo, "job", "integrate", jobId)).code, 0);
  const back = await spot(env, repo, "job", "rollback", jobId, "--confirm");
  assert.equal(back.code, 0, back.stdout + back.stderr);

  const repaired = await spot(env, repo, "job", "repair", jobId, "lib", "Keep x at 2, with a comment");
  assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
  assert.deepEqual(repaired.json.requeued, ["lib", "app", "review"]);
  assert.equal(repaired.json.nextCommand, `spot job resume ${jobId}`);
  assert.equal((await spot(env, repo, "job", "resume", jobId)).code, 0);
  const done = await waitToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const runs = (done.json.tasks as { id: string; runId: string }[]).map((t) => t.runId);
  assert.deepEqual(runs, [`${jobId}.lib-a2`, `${jobId}.app-a2`, `${jobId}.review-a2`]);
  const landed = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(landed.code, 0, landed.stdout + landed.stderr);
  assert.equal(await Deno.readTextFile(join(repo, "ui/y.ts")), "export const y = 2;\n");
  await Deno.remove(env.dir, { recursive: true });
});
