/**
 * The stranding reported with two builders: the first landed, the second refused because the first one's check
 * had left `__pycache__/` in the user's checkout; `job integrate` again was STATE_INVALID and nothing could
 * finish the job. Now it cannot happen (checks run in a scratch tree), and a job left that way is finished.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sh, spot, type SpotEnv, writeJson } from "../helpers.ts";
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
  write,
} from "../jobs/helpers.ts";

/** Two Python builders whose checks import their module (writing `__pycache__/` where they run), one reviewer. */
async function pythonJob(env: SpotEnv, repo: string): Promise<string> {
  env.env.PATH = `/usr/bin:/bin:${env.env.PATH}`;
  const builder = async (id: string) =>
    task(id, "builder", {
      ownership: [id],
      checks: [{ id: "imports", argv: ["python3", "-c", `import ${id}.mod as m; assert m.V == 2`] }],
      model: replay(
        await episode(env.dir, id, [
          write(`${id}/mod.py`, "V = 2\n"),
          result({ summary: `${id} is 2`, changedFiles: [`${id}/mod.py`] }),
        ]),
      ),
    });
  const created = await init(env, repo, {
    allowWrites: true,
    tasks: [
      await builder("api"),
      await builder("ui"),
      task("review", "reviewer", {
        after: ["api", "ui"],
        model: replay(await episode(env.dir, "review", [approve("api", "ui")])),
      }),
    ],
  });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  return jobId;
}

Deno.test("job integrate: two builders whose checks write __pycache__ both land, and the checkout stays clean", async () => {
  const { env, repo } = await setup();
  const head = await sh(repo, "git", "rev-parse", "HEAD");
  const jobId = await pythonJob(env, repo);
  const integrated = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(integrated.code, 0, integrated.stdout + integrated.stderr);
  assert.deepEqual((integrated.json.commits as { task: string }[]).map((c) => c.task), ["api", "ui"]);
  assert.equal(await sh(repo, "git", "rev-list", "--count", `${head}..HEAD`), "2");
  assert.equal(await sh(repo, "git", "status", "--porcelain", "--ignored"), "", "the checks left litter");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job integrate finishes a job left stranded: the first builder on the branch, the second refused", async () => {
  const { env, repo } = await setup();
  const head = await sh(repo, "git", "rev-parse", "HEAD");
  const jobId = await pythonJob(env, repo);
  // The stranded state, as an earlier spot left it: every builder approved first, then landed one by one.
  for (const id of ["api", "ui"]) {
    const runId = `${jobId}.${id}`;
    const verification = JSON.parse(
      await Deno.readTextFile(join(env.stateDir, "runs", runId, "verification.json")),
    );
    const review = join(env.dir, `review-${id}.json`);
    await writeJson(review, {
      schemaVersion: 1,
      verdict: "approve",
      diffSha256: verification.diffSha256,
      findings: [],
      verificationGaps: [],
      summary: "ok",
    });
    const approved = await spot(env, repo, "approve", "--id", runId, "--review", review, "--message", id);
    assert.equal(approved.code, 0, approved.stderr);
  }
  assert.equal((await spot(env, repo, "integrate", "--id", `${jobId}.api`)).code, 0);
  // What the first builder's check left in the checkout when checks ran there.
  await Deno.mkdir(join(repo, "api", "__pycache__"), { recursive: true });
  await Deno.writeTextFile(join(repo, "api", "__pycache__", "mod.cpython-311.pyc"), "bytecode");
  const refused = await spot(env, repo, "integrate", "--id", `${jobId}.ui`);
  assert.equal(refused.code, 4, refused.stdout + refused.stderr);
  const first = await sh(repo, "git", "rev-parse", "HEAD");
  assert.equal(await sh(repo, "git", "rev-list", "--count", `${head}..HEAD`), "1");

  const finished = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(finished.code, 0, `${code(finished)}: ${finished.stdout}${finished.stderr}`);
  const commits = finished.json.commits as { task: string; commit: string }[];
  assert.deepEqual(commits.map((c) => c.task), ["api", "ui"]);
  assert.equal(commits[0].commit, first, "the first builder's commit was kept");
  assert.equal(await sh(repo, "git", "rev-parse", "HEAD"), commits[1].commit);
  assert.equal(await sh(repo, "git", "rev-parse", "HEAD^"), first);
  assert.equal(await Deno.readTextFile(join(repo, "ui/mod.py")), "V = 2\n");
  const status = await spot(env, repo, "job", "status", jobId);
  assert.equal((status.json.integration as { landed: boolean }).landed, true);
  await Deno.remove(env.dir, { recursive: true });
});
