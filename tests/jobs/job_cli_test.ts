/**
 * `spot job` through the CLI with the replay worker: a scout, two builders with disjoint ownership and a
 * reviewer run as spot runs under a detached coordinator; the refusals end with their own codes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { code, FILES, fourTasks, init, result, runToEnd, setup, task, write } from "./helpers.ts";

Deno.test("job: scout, two disjoint builders and a reviewer run in order as spot runs", async () => {
  const { env, repo } = await setup();
  const tasks = await fourTasks(env.dir, [
    write("ui/y.ts", "export const y = 2;\n"),
    result({ summary: "y is 2", changedFiles: ["ui/y.ts"] }),
  ]);
  const created = await init(env, repo, { allowWrites: true, tasks });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const tasksOut = done.json.tasks as { id: string; state: string; runId: string; changedFiles?: string[] }[];
  assert.deepEqual(tasksOut.map((t) => `${t.id}:${t.state}`), [
    "scout:succeeded",
    "api:succeeded",
    "ui:succeeded",
    "review:succeeded",
  ]);
  assert.deepEqual(tasksOut.find((t) => t.id === "api")!.changedFiles, ["api/x.ts"]);
  // Each task is a run of its own; the order is the graph's: the builders started after the scout ended.
  const events = (await Deno.readTextFile(join(env.stateDir, "jobs", jobId, "events.jsonl")))
    .trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.type === "task").map((e) =>
      `${e.id}:${e.state}`
    );
  assert.ok(events.indexOf("scout:succeeded") < events.indexOf("api:running"), events.join(" "));
  assert.ok(events.indexOf("ui:succeeded") < events.indexOf("review:running"), events.join(" "));
  const reviewPrompt = await Deno.readTextFile(
    join(env.stateDir, "runs", tasksOut[3].runId, "prompt-run-r0.md"),
  );
  assert.match(reviewPrompt, /## What "api" reported\nx is 2\nChanged: api\/x\.ts/);
  // The user's checkout is untouched until integration.
  assert.equal(await Deno.readTextFile(join(repo, "api/x.ts")), FILES["api/x.ts"]);
});

Deno.test("job: a builder writing outside its ownership fails with the paths, and blocks its reviewer", async () => {
  const { env, repo } = await setup();
  const tasks = await fourTasks(env.dir, [
    write("ui/y.ts", "export const y = 2;\n"),
    write("README.md", "# x\n"),
  ]);
  const created = await init(env, repo, { allowWrites: true, tasks });
  const done = await runToEnd(env, repo, String(created.json.jobId));
  assert.equal(done.code, 3, done.stdout + done.stderr);
  assert.equal(code(done), "JOB_FAILED");
  const out = (done.json.error as { details: { tasks: { id: string; state: string; reason?: string }[] } })
    .details.tasks;
  const ui = out.find((t) => t.id === "ui")!;
  assert.equal(ui.state, "failed");
  assert.match(ui.reason!, /^OWNERSHIP_VIOLATED: wrote outside its ownership: README\.md$/);
  const review = out.find((t) => t.id === "review")!;
  assert.equal(review.state, "blocked");
  assert.match(review.reason!, /after "ui" failed: OWNERSHIP_VIOLATED/);
});

Deno.test("job init refuses overlapping ownership and cycles before anything runs", async () => {
  const { env, repo } = await setup();
  const b = (id: string, ownership: string[], after: string[] = []) =>
    task(id, "builder", { ownership, after, noChecksReason: "n" });
  const overlap = await init(env, repo, {
    allowWrites: true,
    tasks: [b("a", ["api"]), b("c", ["api/x.ts"])],
  });
  assert.equal(overlap.code, 2);
  assert.equal(code(overlap), "OWNERSHIP_OVERLAP");
  const cycle = await init(env, repo, {
    allowWrites: true,
    tasks: [b("a", ["api"], ["c"]), b("c", ["ui"], ["a"])],
  });
  assert.equal(code(cycle), "JOB_CYCLE");
  assert.match(
    (cycle.json.error as { message: string }).message,
    /:\d+:\d+ tasks\[0\]\.after: .*a -> c -> a/,
  );
  // A check that runs a file the builder owns: spot would lock it, so the builder could never change it.
  const owned = await init(env, repo, {
    allowWrites: true,
    tasks: [task("a", "builder", { ownership: ["api"], checks: [{ id: "t", argv: ["cat", "./api/x.ts"] }] })],
  });
  assert.equal(code(owned), "JOB_INVALID", owned.stdout + owned.stderr);
  assert.match(
    (owned.json.error as { message: string }).message,
    /:\d+:\d+ tasks\[0\]\.checks\[0\]\.argv\[1\]: check "t" of builder "a" \(cat \.\/api\/x\.ts\) names "api\/x\.ts", a file builder "a" owns/,
  );
  const jobs = await Array.fromAsync(Deno.readDir(join(env.stateDir, "jobs"))).catch(() => []);
  assert.equal(jobs.length, 0, "a refused job was created");
});
