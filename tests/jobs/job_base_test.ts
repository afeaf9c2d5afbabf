/**
 * A job's base: the checkout's uncommitted work (a tracked edit, a staged edit, an untracked file) is
 * snapshotted once to refs/spot/<job>/base without touching the user's index; every task starts there; apply
 * mode writes the builder's file beside the user's work, which stays as it was. With includeUncommitted false
 * the tasks start from HEAD alone; commit mode lands only the builders' own change on HEAD.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sh, spot } from "../helpers.ts";
import { approve, episode, init, replay, result, runToEnd, setup, task, write } from "./helpers.ts";

const brief = result({ summary: "found", brief: "x lives in api/x.ts" });

Deno.test("job base: uncommitted work is snapshotted once for every task, the index untouched, and kept by apply", async () => {
  const { env, repo } = await setup();
  await Deno.writeTextFile(join(repo, "README.md"), "# r\nstaged by the user\n");
  await sh(repo, "git", "add", "README.md");
  await Deno.writeTextFile(join(repo, "README.md"), "# r\nstaged by the user\nand edited after\n");
  await Deno.writeTextFile(join(repo, "notes.txt"), "the user's own notes\n");
  const head = (await sh(repo, "git", "rev-parse", "HEAD")).trim();
  const index = await sh(repo, "git", "ls-files", "--stage");
  const created = await init(env, repo, {
    allowWrites: true,
    config: { integration: "apply" },
    tasks: [
      task("scout", "scout", { model: replay(await episode(env.dir, "scout", [brief])) }),
      task("api", "builder", {
        after: ["scout"],
        ownership: ["api"],
        // spot's own check runs on the builder's tree: the user's untracked file and latest edit are there.
        checks: [{
          id: "sees",
          argv: ["sh", "-c", "grep -q notes notes.txt && grep -q 'edited after' README.md"],
        }],
        model: replay(
          await episode(env.dir, "api", [
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
    ],
  });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);

  const base = (await sh(repo, "git", "rev-parse", `refs/spot/${jobId}/base`)).trim();
  assert.notEqual(base, head);
  assert.equal((await sh(repo, "git", "rev-parse", `${base}^`)).trim(), head, "the snapshot sits on HEAD");
  const startOf = async (id: string) =>
    JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", `${jobId}.${id}`, "state.json")))
      .workerBaseRevision;
  for (const id of ["scout", "api"]) {
    assert.equal(await startOf(id), base, `${id} started from the job's base`);
  }
  // The reviewer starts from the builder's verified work, which sits on the same base.
  const verified = (await sh(repo, "git", "rev-parse", `refs/spot/${jobId}/tasks/api`)).trim();
  assert.equal(await startOf("review"), verified);
  assert.equal((await sh(repo, "git", "rev-parse", `${verified}^`)).trim(), base);
  assert.equal(await sh(repo, "git", "ls-files", "--stage"), index, "the user's index is untouched");

  const integrated = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(integrated.code, 0, integrated.stdout + integrated.stderr);
  assert.equal(await Deno.readTextFile(join(repo, "api/x.ts")), "export const x = 2;\n");
  assert.equal(
    await Deno.readTextFile(join(repo, "README.md")),
    "# r\nstaged by the user\nand edited after\n",
  );
  assert.equal(await Deno.readTextFile(join(repo, "notes.txt")), "the user's own notes\n");
  assert.equal((await sh(repo, "git", "rev-parse", "HEAD")).trim(), head);
  assert.equal(await sh(repo, "git", "ls-files", "--stage"), index);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job base: with includeUncommitted false the tasks start from HEAD alone", async () => {
  const { env, repo } = await setup();
  await Deno.writeTextFile(join(repo, "notes.txt"), "the user's own notes\n");
  const head = (await sh(repo, "git", "rev-parse", "HEAD")).trim();
  const created = await init(env, repo, {
    includeUncommitted: false,
    tasks: [task("scout", "scout", { model: replay(await episode(env.dir, "scout", [brief])) })],
  });
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const run = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", `${jobId}.scout`, "state.json")));
  assert.equal(run.workerBaseRevision, head);
  assert.equal(run.snapshotCommit, null);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job base: commit mode lands the builder's own change on HEAD, the user's uncommitted work left as it was", async () => {
  const { env, repo } = await setup();
  await Deno.writeTextFile(join(repo, "README.md"), "# r\nthe user's uncommitted edit\n");
  await Deno.writeTextFile(join(repo, "notes.txt"), "the user's own notes\n");
  const head = (await sh(repo, "git", "rev-parse", "HEAD")).trim();
  const created = await init(env, repo, {
    allowWrites: true,
    tasks: [
      task("api", "builder", {
        ownership: ["api"],
        checks: [{ id: "x", argv: ["grep", "-rq", "x = 2", "api"] }],
        model: replay(
          await episode(env.dir, "api", [
            write("api/x.ts", "export const x = 2;\n"),
            result({ summary: "x is 2", changedFiles: ["api/x.ts"] }),
          ]),
        ),
      }),
      task("review", "reviewer", {
        after: ["api"],
        model: replay(await episode(env.dir, "review", [approve("api")])),
      }),
    ],
  });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const integrated = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(integrated.code, 0, integrated.stdout + integrated.stderr);
  assert.equal((await sh(repo, "git", "rev-parse", "HEAD^")).trim(), head);
  assert.equal((await sh(repo, "git", "show", "--name-only", "--format=", "HEAD")).trim(), "api/x.ts");
  assert.equal(await Deno.readTextFile(join(repo, "api/x.ts")), "export const x = 2;\n");
  assert.equal(await Deno.readTextFile(join(repo, "README.md")), "# r\nthe user's uncommitted edit\n");
  assert.equal((await sh(repo, "git", "status", "--porcelain")).trim(), "M README.md\n?? notes.txt");
  await Deno.remove(env.dir, { recursive: true });
});
