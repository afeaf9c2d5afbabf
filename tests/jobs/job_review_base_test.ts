/**
 * `reviewBase` through the CLI: a job of one reviewer reviews the checkout's uncommitted work, or a range of
 * its commits, seeing that change in its worktree and as a patch; its verdict must echo the fingerprint of the
 * change it was shown; the key is checked at `job init` and `job add` with line:col like the rest.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { JobState } from "../../graphs/store.ts";
import { sha256Hex } from "../../git/hash.ts";
import { sh, spot } from "../helpers.ts";
import { code, episode, init, replay, result, runToEnd, setup, task } from "./helpers.ts";

const look = (log: string) => ({
  op: "exec",
  argv: ["sh", "-c", `cat api/x.ts README.md > '${log}'`],
});
const verdict = (id: string, fingerprint = `{{fingerprint:${id}}}`) =>
  result({ summary: "read it", review: { taskId: id, fingerprint, verdict: "approve" } });
const readState = async (stateDir: string, jobId: string) =>
  JSON.parse(await Deno.readTextFile(join(stateDir, "jobs", jobId, "state.json"))) as JobState;

Deno.test("job reviewBase HEAD: a job of one reviewer reviews the checkout's uncommitted work", async () => {
  const { env, repo } = await setup();
  await Deno.writeTextFile(join(repo, "api/x.ts"), "export const x = 5;\n");
  const head = await sh(repo, "git", "rev-parse", "HEAD");
  const log = join(env.dir, "seen.txt");
  const created = await init(env, repo, {
    tasks: [task("check", "reviewer", {
      reviewBase: "HEAD",
      model: replay(await episode(env.dir, "check", [look(log), verdict("check")])),
    })],
  });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);

  assert.equal(await Deno.readTextFile(log), "export const x = 5;\n# r\n", "its worktree holds the change");
  const state = await readState(env.stateDir, jobId);
  const reviewed = state.tasks.check.reviewed!;
  assert.equal(reviewed.from, head);
  assert.equal(reviewed.to, state.base!.commit, "the job's snapshot of the uncommitted work");
  const runDir = join(env.stateDir, "runs", `${jobId}.check`);
  const patch = await Deno.readTextFile(join(runDir, "attachments", "changes.patch"));
  assert.match(patch, /^-export const x = 1;\n\+export const x = 5;$/m);
  assert.equal(reviewed.patchSha256, await sha256Hex(patch));
  const prompt = await Deno.readTextFile(join(runDir, "prompt-run-r0.md"));
  assert.ok(prompt.includes(`fingerprint of check: ${reviewed.fingerprints.check}`), prompt);
  assert.ok(prompt.includes(join(runDir, "attachments", "changes.patch")));
  assert.equal(
    state.tasks.check.result?.review && "fingerprint" in state.tasks.check.result.review
      ? state.tasks.check.result.review.fingerprint
      : null,
    reviewed.fingerprints.check,
  );
  assert.equal(await sh(repo, "git", "status", "--porcelain"), "M api/x.ts", "the checkout is as it was");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job reviewBase A..B: the reviewer sees that range alone; a verdict on another change does not count", async () => {
  const { env, repo } = await setup();
  await Deno.writeTextFile(join(repo, "README.md"), "# r\nsecond line\n");
  await sh(repo, "git", "commit", "-q", "-am", "readme");
  await Deno.writeTextFile(join(repo, "api/x.ts"), "export const x = 9;\n"); // uncommitted: not in the range
  const log = join(env.dir, "seen.txt");
  const created = await init(env, repo, {
    tasks: [
      task("range", "reviewer", {
        reviewBase: "HEAD~1..HEAD",
        model: replay(await episode(env.dir, "range", [look(log), verdict("range")])),
      }),
      task("stale", "reviewer", {
        reviewBase: "main~1..main",
        // It says the same again in its result repair turn.
        model: replay(
          await episode(env.dir, "stale", [
            verdict("stale", "0".repeat(64)),
            { ...verdict("stale", "0".repeat(64)), phase: "follow-up" },
          ]),
        ),
      }),
    ],
  });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(code(done), "JOB_FAILED", done.stdout + done.stderr);

  assert.equal(await Deno.readTextFile(log), "export const x = 1;\n# r\nsecond line\n");
  const state = await readState(env.stateDir, jobId);
  assert.equal(state.tasks.range.state, "succeeded");
  assert.equal(state.tasks.range.reviewed?.to, await sh(repo, "git", "rev-parse", "HEAD"));
  const patch = await Deno.readTextFile(
    join(env.stateDir, "runs", `${jobId}.range`, "attachments", "changes.patch"),
  );
  assert.match(patch, /^\+second line$/m);
  assert.doesNotMatch(patch, /api\/x\.ts/);
  assert.equal(state.tasks.stale.state, "failed");
  assert.match(
    state.tasks.stale.reason!,
    /^RESULT_INVALID: the verdict on "stale" echoes fingerprint 000000000000, but the change you were shown has fingerprint [0-9a-f]{64}/,
  );
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job init and add check reviewBase with line:col: a revision that names nothing, a bad form, the wrong task", async () => {
  const { env, repo } = await setup();
  const refused = await init(env, repo, {
    allowWrites: true,
    tasks: [
      task("api", "builder", { ownership: ["api"], noChecksReason: "a constant" }),
      task("nope", "reviewer", { reviewBase: "no-such-branch" }),
      task("dots", "reviewer", { reviewBase: "main...HEAD" }),
      task("scout", "scout", { reviewBase: "main" }),
      task("both", "reviewer", { after: ["api"], reviewOf: "api", reviewBase: "main" }),
      task("mixed", "reviewer", { after: ["api"], reviewBase: "main" }),
    ],
  });
  assert.equal(code(refused), "JOB_INVALID", refused.stdout + refused.stderr);
  const message = (refused.json.error as { message: string }).message;
  // The schema's problems come first; the graph's and the repository's only once it passes.
  assert.match(message, /:\d+:\d+ tasks\[2\]\.reviewBase: expected a revision \(REV\) or a range \(A\.\.B\)/);
  assert.match(message, /:\d+:\d+ tasks\[3\]\.reviewBase: only a reviewer reviews a range/);
  assert.match(
    message,
    /:\d+:\d+ tasks\[4\]\.reviewBase: a reviewer reviews a range \(reviewBase\) or a builder/,
  );

  const graph = await init(env, repo, {
    allowWrites: true,
    tasks: [
      task("api", "builder", { ownership: ["api"], noChecksReason: "a constant" }),
      task("nope", "reviewer", { reviewBase: "no-such-branch..HEAD" }),
      task("mixed", "reviewer", { after: ["api"], reviewBase: "main" }),
    ],
  });
  assert.equal(code(graph), "JOB_INVALID", graph.stdout + graph.stderr);
  const issues = (graph.json.error as { message: string }).message;
  assert.match(
    issues,
    /:\d+:\d+ tasks\[1\]\.reviewBase: "no-such-branch" does not name a commit of the repository/,
  );
  assert.doesNotMatch(issues, /"HEAD" does not name/);
  assert.match(
    issues,
    /:\d+:\d+ tasks\[2\]\.reviewBase: a reviewer of a range reviews no builder, and "api"/,
  );

  const ok = await init(env, repo, { tasks: [task("s", "scout")] });
  const jobId = String(ok.json.jobId);
  const file = join(env.dir, "added.json");
  await Deno.writeTextFile(file, JSON.stringify(task("late", "reviewer", { reviewBase: "v9" }), null, 2));
  const added = await spot(env, repo, "job", "add", jobId, file);
  assert.equal(code(added), "JOB_INVALID", added.stdout + added.stderr);
  assert.match(
    (added.json.error as { message: string }).message,
    /added\.json:\d+:\d+ reviewBase: "v9" does not name a commit of the repository/,
  );
  await Deno.remove(env.dir, { recursive: true });
});
