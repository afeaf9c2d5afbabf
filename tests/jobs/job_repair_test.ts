/**
 * `spot job repair` and `spot job retry-launch` through the CLI: a builder that failed its checks gets a new
 * attempt told the parent's text, the reviewer after it runs again on the new fingerprint, and the job
 * integrates; a task whose launch failed is launched again once; what may not be sent back is REPAIR_REFUSED.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { JobState } from "../../graphs/store.ts";
import { sh, spot } from "../helpers.ts";
import { approve, code, episode, init, replay, result, runToEnd, setup, task, waitToEnd } from "./helpers.ts";

const readState = async (stateDir: string, jobId: string) =>
  JSON.parse(await Deno.readTextFile(join(stateDir, "jobs", jobId, "state.json"))) as JobState;

Deno.test("job repair: a failed builder's new attempt is told the text, its reviewer reruns, and the job integrates", async () => {
  const { env, repo } = await setup();
  const fixed = join(env.dir, "fixed");
  // The replay worker cannot read its prompt: the test flips what it writes between the two attempts.
  const writeX = {
    op: "exec",
    argv: [
      "sh",
      "-c",
      `if [ -e '${fixed}' ]; then v=2; else v=3; fi; echo "export const x = $v;" > api/x.ts`,
    ],
  };
  const created = await init(env, repo, {
    allowWrites: true,
    tasks: [
      task("api", "builder", {
        ownership: ["api"],
        checks: [{ id: "x", argv: ["grep", "-rq", "x = 2", "api"] }],
        model: replay(
          await episode(env.dir, "api", [writeX, result({ summary: "x set", changedFiles: ["api/x.ts"] })]),
        ),
      }),
      task("review", "reviewer", {
        after: ["api"],
        reviewOf: "api",
        model: replay(await episode(env.dir, "review", [approve("api")])),
      }),
    ],
  });
  const jobId = String(created.json.jobId);
  const first = await runToEnd(env, repo, jobId);
  assert.equal(code(first), "JOB_FAILED", first.stdout + first.stderr);
  assert.match((await readState(env.stateDir, jobId)).tasks.api.reason!, /^VERIFICATION_FAILED/);
  // job status names the check that failed, how it ended, and the next commands.
  const status = await spot(env, repo, "job", "status", jobId);
  const api = (status.json.tasks as { id: string; reason: string }[]).find((t) => t.id === "api")!;
  assert.match(api.reason, /check "x" \(grep -rq x = 2 api\) exited 1/);
  assert.ok(api.reason.includes(`spot inspect --id ${jobId}.api`), api.reason);
  assert.ok(api.reason.includes(`spot job repair ${jobId} api TEXT`), api.reason);

  const unknown = await spot(env, repo, "job", "repair", jobId, "nope", "anything");
  assert.equal(code(unknown), "REPAIR_REFUSED");

  await Deno.writeTextFile(fixed, "");
  const repaired = await spot(env, repo, "job", "repair", jobId, "api", "x must be 2, not 3");
  assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
  assert.deepEqual(repaired.json.requeued, ["api", "review"]);
  assert.equal(repaired.json.attempt, 2);
  assert.equal(repaired.json.nextCommand, `spot job resume ${jobId}`);
  const again = await spot(env, repo, "job", "resume", jobId);
  assert.equal(again.code, 0, again.stderr);
  const done = await waitToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);

  const state = await readState(env.stateDir, jobId);
  assert.equal(state.tasks.api.runId, `${jobId}.api-a2`);
  assert.equal(state.tasks.api.attempt, 2);
  assert.deepEqual(state.tasks.api.previousRuns, [`${jobId}.api`]);
  const old = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", `${jobId}.api`, "state.json")));
  assert.equal(old.status, "failed");
  const prompt = await Deno.readTextFile(join(env.stateDir, "runs", `${jobId}.api-a2`, "prompt-run-r0.md"));
  assert.match(
    prompt,
    /Repair \(attempt 2\): your attempt 1 ended failed: VERIFICATION_FAILED.*The parent asks: x must be 2, not 3/,
  );
  assert.equal(state.tasks.review.state, "succeeded");
  const integrated = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(integrated.code, 0, integrated.stdout + integrated.stderr);
  assert.equal(await Deno.readTextFile(join(repo, "api/x.ts")), "export const x = 2;\n");
  assert.match(await sh(repo, "git", "log", "--format=%s", "-1"), /api/);

  const late = await spot(env, repo, "job", "repair", jobId, "api", "one more thing");
  assert.equal(code(late), "REPAIR_REFUSED");
  assert.match((late.json.error as { message: string }).message, /integrated; roll it back first/);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job retry-launch: a task whose launch failed is launched again once; one whose worker ran is refused", async () => {
  const { env, repo } = await setup();
  const missing = join(env.dir, "later.jsonl");
  const created = await init(env, repo, {
    tasks: [
      task("scout", "scout", { model: replay(missing) }),
      task("next", "scout", {
        after: ["scout"],
        model: replay(await episode(env.dir, "next", [result({ summary: "ok", brief: "ok" })])),
      }),
      task("stuck", "scout", {
        model: replay(
          await episode(env.dir, "stuck", [
            result({ status: "blocked", summary: "no", blockers: ["no access"] }),
          ]),
        ),
      }),
    ],
  });
  const jobId = String(created.json.jobId);
  const first = await runToEnd(env, repo, jobId);
  assert.equal(code(first), "JOB_FAILED", first.stdout + first.stderr);
  assert.equal((await readState(env.stateDir, jobId)).tasks.next.state, "blocked");

  await episode(env.dir, "later", [result({ summary: "found", brief: "in api/" })]);
  const retried = await spot(env, repo, "job", "retry-launch", jobId, "scout");
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  assert.deepEqual(retried.json.requeued, ["scout", "next"]);
  assert.equal((await spot(env, repo, "job", "resume", jobId)).code, 0);
  const done = await waitToEnd(env, repo, jobId);
  assert.equal(code(done), "JOB_FAILED", done.stdout + done.stderr);
  const state = await readState(env.stateDir, jobId);
  assert.equal(state.tasks.scout.state, "succeeded");
  assert.equal(state.tasks.scout.runId, `${jobId}.scout-relaunch`);
  assert.equal(state.tasks.next.state, "succeeded");

  const worked = await spot(env, repo, "job", "retry-launch", jobId, "stuck");
  assert.equal(code(worked), "REPAIR_REFUSED");
  assert.match((worked.json.error as { message: string }).message, /its worker started/);

  const ranOnce = await spot(env, repo, "job", "retry-launch", jobId, "next");
  assert.equal(code(ranOnce), "REPAIR_REFUSED");
  assert.match((ranOnce.json.error as { message: string }).message, /it is succeeded/);
  await Deno.remove(env.dir, { recursive: true });
});
