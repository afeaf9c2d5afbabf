/** The job's notify command: run once when the job settles, with its summary on stdin; its failure changes nothing. */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { JobState } from "../../graphs/store.ts";
import { episode, init, replay, result, runToEnd, setup, task } from "./helpers.ts";

Deno.test("job notify: the summary reaches the command on stdin when the job settles; a failing command is recorded only", async () => {
  const { env, repo } = await setup();
  const out = join(env.dir, "notified.json");
  const created = await init(env, repo, {
    notify: { argv: ["sh", "-c", `cat > '${out}'; exit 3`] },
    tasks: [
      task("scout", "scout", {
        model: replay(await episode(env.dir, "scout", [result({ summary: "found", brief: "in api/" })])),
      }),
    ],
  });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const stateFile = join(env.stateDir, "jobs", jobId, "state.json");
  let state: JobState | null = null;
  for (let i = 0; i < 100 && !state?.notified; i++) {
    await new Promise((r) => setTimeout(r, 100));
    state = JSON.parse(await Deno.readTextFile(stateFile));
  }
  assert.equal(state?.notified?.exitCode, 3, JSON.stringify(state));
  assert.equal(state?.status, "succeeded", "a failing notify leaves the outcome alone");
  const summary = JSON.parse(await Deno.readTextFile(out));
  assert.equal(summary.jobId, jobId);
  assert.equal(summary.status, "succeeded");
  assert.deepEqual(summary.tasks.map((t: { id: string; state: string }) => [t.id, t.state]), [[
    "scout",
    "succeeded",
  ]]);
  assert.equal(typeof summary.costUsd, "number");
  await Deno.remove(env.dir, { recursive: true });
});
