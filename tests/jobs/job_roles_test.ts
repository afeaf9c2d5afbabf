/**
 * Read-only roles through the CLI: under bwrap a scout's worktree is mounted read-only, so its write fails
 * inside the sandbox and the task still ends as a scout that only read; under `none` nothing stops the write,
 * and the check after its turn fails the task with the paths.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { code, episode, FILES, init, replay, result, runToEnd, setup, task, write } from "./helpers.ts";

async function writingScout(sandbox: "bwrap" | "none") {
  const { env, repo } = await setup(sandbox);
  const scout = task("scout", "scout", {
    model: replay(
      await episode(env.dir, "scout", [
        write("README.md", "# scribbled\n"),
        result({ summary: "read it", brief: "nothing to add" }),
      ]),
    ),
  });
  const created = await init(env, repo, { config: { sandbox }, tasks: [scout] });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  const runDir = join(env.stateDir, "runs", `${jobId}.scout`);
  const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  const events = (await Deno.readTextFile(join(runDir, "events.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const results = events.filter((e) => e.type === "worker_tool_result");
  return {
    env,
    repo,
    done,
    state,
    results,
    worktree: await Deno.readTextFile(join(state.worktreePath, "README.md")),
  };
}

Deno.test("job: under bwrap a scout's write fails inside the sandbox: its worktree is read-only", async () => {
  const r = await writingScout("bwrap");
  assert.equal(r.done.code, 0, r.done.stdout + r.done.stderr);
  assert.equal(r.worktree, FILES["README.md"], "the scout changed its worktree");
  assert.equal(r.results.length, 1);
  assert.equal(r.results[0].ok, false, JSON.stringify(r.results[0]));
  assert.match(JSON.stringify(r.results[0]), /read-only file system/i);
  assert.equal(r.state.sandboxDetails.steps.worker.backend, "bwrap");
  await Deno.remove(r.env.dir, { recursive: true });
});

Deno.test("job: without an OS sandbox a scout's write lands, and the check after its turn fails the task", async () => {
  const r = await writingScout("none");
  assert.equal(code(r.done), "JOB_FAILED", r.done.stdout + r.done.stderr);
  assert.equal(r.worktree, "# scribbled\n");
  const scout = (r.done.json.error as { details: { tasks: { reason?: string }[] } }).details.tasks[0];
  assert.match(scout.reason!, /^OWNERSHIP_VIOLATED: a scout may not write, and changed README\.md$/);
  assert.equal(
    await Deno.readTextFile(join(r.repo, "README.md")),
    FILES["README.md"],
    "the checkout changed",
  );
  await Deno.remove(r.env.dir, { recursive: true });
});
