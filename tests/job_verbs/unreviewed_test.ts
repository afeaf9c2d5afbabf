/**
 * A builder no reviewer task reviews: `init` names it at once, `integrate` refuses it with REVIEW_GATE and says
 * how to add its reviewer, and `job add` takes that reviewer into the succeeded job so it can land. A builder
 * landed by hand (`spot approve`, `spot integrate --id JOB.task`) shows in `job status` as landed outside it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sh, spot, writeJson } from "../helpers.ts";
import {
  approve,
  code,
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

async function builderOnly() {
  const { env, repo } = await setup();
  const api = task("api", "builder", {
    ownership: ["api"],
    checks: [{ id: "x", argv: ["grep", "-rq", "x = 2", "api"] }],
    model: replay(
      await episode(env.dir, "api", [
        write("api/x.ts", "export const x = 2;\n"),
        result({ summary: "x is 2", changedFiles: ["api/x.ts"] }),
      ]),
    ),
  });
  const created = await init(env, repo, { allowWrites: true, tasks: [api] });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  return { env, repo, jobId, created };
}

Deno.test("job: a builder without a reviewer is named at init, and a reviewer added after it succeeded lands it", async () => {
  const { env, repo, jobId, created } = await builderOnly();
  assert.deepEqual(created.json.unreviewed, ["api"]);
  assert.match(String((created.json.warnings as string[])[0]), /"api" have no reviewer task.*spot job add/);

  const refused = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(code(refused), "REVIEW_GATE", refused.stdout + refused.stderr);
  const error = refused.json.error as { message: string; details: { reviewers: string[] } };
  assert.ok(
    error.message.includes(`no reviewer task reviews it: add one (spot job add ${jobId} FILE`),
    error.message,
  );
  assert.match(error.message, /"reviewOf": "api"/);
  assert.deepEqual(error.details.reviewers, []);

  const file = join(env.dir, "review-task.json");
  await writeJson(
    file,
    task("review", "reviewer", {
      after: ["api"],
      reviewOf: "api",
      model: replay(await episode(env.dir, "review", [approve("api")])),
    }),
  );
  const added = await spot(env, repo, "job", "add", jobId, file);
  assert.equal(added.code, 0, added.stdout + added.stderr);
  assert.equal(added.json.nextCommand, `spot job resume ${jobId}`);
  const resumed = await spot(env, repo, "job", "resume", jobId);
  assert.equal(resumed.code, 0, resumed.stderr);
  const done = await waitToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const landed = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(landed.code, 0, landed.stdout + landed.stderr);
  assert.equal(await Deno.readTextFile(join(repo, "api/x.ts")), "export const x = 2;\n");

  // Once it landed, the job takes no more tasks.
  const late = await spot(env, repo, "job", "add", jobId, file);
  assert.equal(code(late), "JOB_INVALID");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job status: a builder approved and integrated by hand shows as landed outside the job", async () => {
  const { env, repo, jobId } = await builderOnly();
  await spot(env, repo, "job", "integrate", jobId); // REVIEW_GATE, recorded as the job's failure
  const runId = `${jobId}.api`;
  const run = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", runId, "state.json")));
  const review = join(env.dir, "review.json");
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: run.diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "ok",
  });
  const approved = await spot(
    env,
    repo,
    "approve",
    "--id",
    runId,
    "--review",
    review,
    "--message",
    "Land api",
  );
  assert.equal(approved.code, 0, approved.stdout + approved.stderr);
  const integrated = await spot(env, repo, "integrate", "--id", runId);
  assert.equal(integrated.code, 0, integrated.stdout + integrated.stderr);
  assert.match(await sh(repo, "git", "show", "HEAD:api/x.ts"), /x = 2/);

  const status = await spot(env, repo, "job", "status", jobId);
  const view = status.json.integration as { landedOutside: unknown; summary: string };
  assert.deepEqual(view.landedOutside, [{ task: "api", runId }]);
  assert.match(view.summary, /builder\(s\) "api" \(run .*\) landed outside the job/);
  await Deno.remove(env.dir, { recursive: true });
});
