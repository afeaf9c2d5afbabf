/**
 * `spot job note` and `spot job barrier` through the CLI with the replay worker: a note reaches the tasks
 * launched after it and not the one already running; a barrier waits for the tasks it names, not the job.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot } from "../helpers.ts";
import { code, episode, init, replay, result, setup, task } from "./helpers.ts";
import { details, exists, gate, jobPath, ok, spotWithStdin, waitFor } from "./admin_helpers.ts";

const scout = async (dir: string, id: string, steps: Record<string, unknown>[], extra = {}) =>
  task(id, "scout", { model: replay(await episode(dir, id, steps)), ...extra });
const found = (summary: string) => result({ summary, brief: summary });
const prompt = (stateDir: string, runId: string) =>
  Deno.readTextFile(join(stateDir, "runs", runId, "prompt-run-r0.md"));

Deno.test("job note: a task launched after the note is told it; the task already running was not", async () => {
  const { env, repo } = await setup();
  const g = gate(env.dir);
  const tasks = [
    await scout(env.dir, "first", [g.wait, found("first looked")]),
    await scout(env.dir, "second", [found("second looked")], { after: ["first"] }),
  ];
  const jobId = String(ok(await init(env, repo, { tasks })).jobId);
  ok(await spot(env, repo, "job", "start", jobId));
  // The first task's prompt is written when its worker starts: from then on a note can no longer reach it.
  await waitFor(
    "the first task's prompt",
    () => exists(join(env.stateDir, "runs", `${jobId}.first`, "prompt-run-r0.md")),
  );
  const noted = ok(await spot(env, repo, "job", "note", jobId, "Use the v2 API; v1 is going away."));
  assert.deepEqual([noted.jobId, noted.notes], [jobId, 1]);
  const again = ok(await spotWithStdin(env, repo, "Keep the public names.\n", "job", "note", jobId, "-"));
  assert.equal(again.notes, 2);
  await g.open();
  ok(await spot(env, repo, "job", "wait", jobId, "--timeout-ms", "120000"));

  const second = await prompt(env.stateDir, `${jobId}.second`);
  assert.match(
    second,
    /## Notes from the parent, oldest first\n- Use the v2 API; v1 is going away\.\n- Keep the public names\.\n/,
  );
  assert.doesNotMatch(await prompt(env.stateDir, `${jobId}.first`), /Notes from the parent|v2 API/);
  const notes = (await Deno.readTextFile(jobPath(env, jobId, "notes.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.deepEqual(notes.map((n) => n.text), ["Use the v2 API; v1 is going away.", "Keep the public names."]);
  assert.ok(notes.every((n) => !Number.isNaN(Date.parse(n.at))));
  const events = (await Deno.readTextFile(jobPath(env, jobId, "events.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.deepEqual(events.filter((e) => e.type === "note").map((e) => e.id), ["1", "2"]);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job note refuses an empty note, one over 4000 characters and an unknown job, and keeps none of them", async () => {
  const { env, repo } = await setup();
  const jobId = String(ok(await init(env, repo, { tasks: [task("s", "scout")] })).jobId);
  const long = await spot(env, repo, "job", "note", jobId, "x".repeat(4001));
  assert.equal(long.code, 2);
  assert.equal(code(long), "JOB_INVALID");
  assert.match((long.json.error as { message: string }).message, /4001 characters, at most 4000/);
  assert.equal(code(await spotWithStdin(env, repo, "  \n", "job", "note", jobId, "-")), "JOB_INVALID");
  assert.equal(code(await spot(env, repo, "job", "note", "job-nope", "hi")), "JOB_NOT_FOUND");
  assert.equal(await exists(jobPath(env, jobId, "notes.jsonl")), false, "a refused note was kept");
  // The limit is the limit: a note of exactly 4000 characters is kept.
  assert.equal(ok(await spot(env, repo, "job", "note", jobId, "x".repeat(4000))).notes, 1);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job barrier waits for the tasks it names, not the job, and fails naming the one that failed", async () => {
  const { env, repo } = await setup();
  const g = gate(env.dir);
  const tasks = [
    await scout(env.dir, "slow", [g.wait, found("slow looked")]),
    await scout(env.dir, "bad", [
      result({ status: "failed", summary: "no", blockers: ["the file is gone"] }),
    ]),
    await scout(env.dir, "good", [found("good looked")]),
  ];
  const jobId = String(ok(await init(env, repo, { tasks })).jobId);
  ok(await spot(env, repo, "job", "start", jobId));

  const unknown = await spot(env, repo, "job", "barrier", jobId, "good", "nope");
  assert.equal(unknown.code, 2);
  assert.equal(code(unknown), "JOB_INVALID");
  assert.deepEqual(details(unknown).known, ["slow", "bad", "good"]);

  const passed = ok(await spot(env, repo, "job", "barrier", jobId, "good", "--timeout-ms", "120000"));
  assert.equal(passed.waiting, false);
  assert.deepEqual((passed.tasks as { id: string; state: string }[]).map((t) => `${t.id}:${t.state}`), [
    "good:succeeded",
  ]);
  const failed = await spot(env, repo, "job", "barrier", jobId, "good", "bad", "--timeout-ms", "120000");
  assert.equal(failed.code, 3, failed.stdout + failed.stderr);
  assert.equal(code(failed), "BARRIER_FAILED");
  assert.deepEqual(details(failed).failed, ["bad"]);
  assert.match((failed.json.error as { message: string }).message, /failed: bad failed$/);
  // Both barriers returned while "slow" still runs: they waited for their tasks, not for the job.
  const open = ok(await spot(env, repo, "job", "barrier", jobId, "slow", "--timeout-ms", "300"));
  assert.equal(open.waiting, true);
  assert.equal((open.tasks as { state: string }[])[0].state, "running");

  await g.open();
  const slow = ok(await spot(env, repo, "job", "barrier", jobId, "slow", "--timeout-ms", "120000"));
  assert.equal(slow.waiting, false);
  assert.equal(code(await spot(env, repo, "job", "wait", jobId, "--timeout-ms", "120000")), "JOB_FAILED");
  await Deno.remove(env.dir, { recursive: true });
});
