/**
 * The worker's result through the CLI: a final text without a readable result gets one report-only repair
 * turn in the same session, and still unreadable fails the task with RESULT_INVALID and the problem; a worker
 * that reports it is blocked fails the task with its blocker.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { code, episode, init, replay, result, runToEnd, say, setup, task } from "./helpers.ts";

async function oneScout(ops: Record<string, unknown>[]) {
  const { env, repo } = await setup();
  const scout = task("scout", "scout", { model: replay(await episode(env.dir, "scout", ops)) });
  const created = await init(env, repo, { tasks: [scout] });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  const tasks = (done.json.error as { details?: { tasks: { reason?: string }[] } } | undefined)?.details
    ?.tasks;
  return { env, done, reason: tasks?.[0].reason, runDir: join(env.stateDir, "runs", `${jobId}.scout`) };
}

Deno.test("job: an unreadable result gets one report-only repair turn, then fails with RESULT_INVALID", async () => {
  const r = await oneScout([say("x lives in api/x.ts, I think")]);
  assert.equal(code(r.done), "JOB_FAILED", r.done.stdout + r.done.stderr);
  assert.equal(r.reason, "RESULT_INVALID: the final text holds no JSON object (after one repair turn)");
  const repair = await Deno.readTextFile(join(r.runDir, "prompt-result-repair.md"));
  assert.match(repair, /^Your result could not be read: the final text holds no JSON object\./);
  assert.match(repair, /Do not change any file/);
  await Deno.remove(r.env.dir, { recursive: true });
});

Deno.test("job: a result missing its role's field is named in the reason", async () => {
  const r = await oneScout([result({ summary: "found it" })]);
  // The repair turn of this episode says nothing more: the reason is what is still wrong after it.
  assert.equal(r.reason, "RESULT_INVALID: the final text holds no JSON object (after one repair turn)");
  const repair = await Deno.readTextFile(join(r.runDir, "prompt-result-repair.md"));
  assert.match(repair, /^Your result could not be read: a scout must give a brief\./);
  await Deno.remove(r.env.dir, { recursive: true });
});

Deno.test("job: a worker reporting itself blocked fails its task with the blocker", async () => {
  const r = await oneScout([
    result({ status: "blocked", summary: "stuck", blockers: ["no access to the API"] }),
  ]);
  assert.equal(r.reason, "the worker reported blocked: no access to the API");
  await Deno.remove(r.env.dir, { recursive: true });
});

Deno.test("job: a repair turn that gives a readable result lets the task succeed with it", async () => {
  const r = await oneScout([
    say("x lives in api/x.ts, I think"),
    { ...result({ summary: "x lives in api/x.ts", brief: "see api/x.ts" }), phase: "follow-up" },
  ]);
  assert.equal(r.done.code, 0, r.done.stdout + r.done.stderr);
  assert.equal(r.reason, undefined);
  const repair = await Deno.readTextFile(join(r.runDir, "prompt-result-repair.md"));
  assert.match(repair, /^Your result could not be read: the final text holds no JSON object\./);
  const status = r.done.json as { tasks: { state: string }[] };
  assert.equal(status.tasks[0].state, "succeeded");
  await Deno.remove(r.env.dir, { recursive: true });
});
