/**
 * TASK_BASE_CONFLICT through the CLI: a task after two builders whose verified changes touch the same file
 * fails before its worker runs, naming the file. Ownership keeps builders that do not wait for each other to
 * disjoint paths, so a graph spot accepted cannot get there on its own: the test rewrites one builder's
 * verified commit in the job's state (under the job's lock, as a change behind spot's back would) while the
 * task after them waits.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type JobState, updateJob } from "../../graphs/store.ts";
import { resolvePaths } from "../../store/paths.ts";
import { sh, spot } from "../helpers.ts";
import { code, episode, init, replay, result, setup, task, waitToEnd, write } from "./helpers.ts";

Deno.test("job: a task after two builders whose changes clash fails TASK_BASE_CONFLICT before its worker runs", async () => {
  const { env, repo } = await setup();
  const flag = join(env.dir, "go");
  const builder = async (id: string, path: string) =>
    task(id, "builder", {
      ownership: [path.split("/")[0]],
      noChecksReason: "a constant",
      model: replay(
        await episode(env.dir, id, [
          write(path, `export const ${id} = 2;\n`),
          result({ summary: "done", changedFiles: [path] }),
        ]),
      ),
    });
  const created = await init(env, repo, {
    allowWrites: true,
    tasks: [
      await builder("a", "api/x.ts"),
      await builder("c", "ui/y.ts"),
      // Holds d back until the test has changed c's record (60 s at most).
      task("gate", "scout", {
        model: replay(
          await episode(env.dir, "gate", [
            {
              op: "exec",
              argv: ["sh", "-c", `for i in $(seq 600); do [ -e '${flag}' ] && exit 0; sleep 0.1; done`],
            },
            result({ summary: "go", brief: "go" }),
          ]),
        ),
      }),
      task("d", "builder", {
        after: ["a", "c", "gate"],
        ownership: ["README.md"],
        noChecksReason: "a constant",
        model: replay(await episode(env.dir, "d", [result({ summary: "never runs" })])),
      }),
    ],
  });
  const jobId = String(created.json.jobId);
  assert.equal((await spot(env, repo, "job", "start", jobId)).code, 0);
  let state: JobState | null = null;
  for (
    let i = 0;
    i < 600 && !(state?.tasks.a.state === "succeeded" && state.tasks.c.state === "succeeded");
    i++
  ) {
    await new Promise((r) => setTimeout(r, 100));
    state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "jobs", jobId, "state.json")));
  }
  assert.equal(state?.tasks.c.state, "succeeded", JSON.stringify(state?.tasks));
  // c's verified change now also edits api/x.ts, which a changed too.
  const base = state!.base!.commit;
  await sh(repo, "git", "checkout", "-q", "--detach", base);
  await Deno.writeTextFile(join(repo, "api/x.ts"), "export const x = 3;\n");
  await sh(repo, "git", "commit", "-q", "-am", "behind spot's back");
  const clash = await sh(repo, "git", "rev-parse", "HEAD");
  await sh(repo, "git", "checkout", "-q", "main");
  const paths = resolvePaths((n) => n === "PI_WORKER_STATE_DIR" ? env.stateDir : env.env[n]);
  await updateJob(paths, jobId, (_, s) => ({
    state: { ...s, tasks: { ...s.tasks, c: { ...s.tasks.c, startCommit: base, verifiedCommit: clash } } },
  }));
  await Deno.writeTextFile(flag, "");

  const done = await waitToEnd(env, repo, jobId);
  assert.equal(code(done), "JOB_FAILED", done.stdout + done.stderr);
  const d = (JSON.parse(await Deno.readTextFile(join(env.stateDir, "jobs", jobId, "state.json"))) as JobState)
    .tasks.d;
  assert.equal(d.state, "failed", done.stdout + done.stderr);
  assert.match(
    d.reason!,
    /^TASK_BASE_CONFLICT: Cannot start task "d": builder "c"'s change conflicts .* in api\/x\.ts$/,
  );
  const made = await Deno.stat(join(env.stateDir, "runs", `${jobId}.d`)).catch(() => null);
  assert.equal(made, null, "its run was never prepared, so no worker ran");
  await Deno.remove(env.dir, { recursive: true });
});
