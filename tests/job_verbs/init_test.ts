/** `spot job init` outside a repository says how to point the job at one: cd into it, or the job's cwd. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, writeJson } from "../helpers.ts";
import { code, setup } from "../jobs/helpers.ts";

Deno.test("job init outside a repository says to cd into it or set the job's cwd", async () => {
  const { env } = await setup();
  const outside = join(env.dir, "not-a-repo");
  await Deno.mkdir(outside);
  const job = { approval: "the test", tasks: [] };
  const file = join(env.dir, "job.json");
  await writeJson(file, job);
  const here = await spot(env, outside, "job", "init", file);
  assert.equal(code(here), "NOT_A_REPOSITORY", here.stdout + here.stderr);
  const error = here.json.error as { message: string; details: { hint: string; cwd: string } };
  assert.match(error.details.hint, /cd into it.*"cwd"/);
  assert.doesNotMatch(error.details.hint, /work directly in the parent/);
  assert.equal(error.details.cwd, outside);

  const named = join(env.dir, "job-cwd.json");
  await writeJson(named, { ...job, cwd: outside });
  const there = await spot(env, env.dir, "job", "init", named);
  assert.equal(code(there), "NOT_A_REPOSITORY");
  const e2 = there.json.error as { message: string; details: { hint: string } };
  assert.match(e2.message, /\(the job's cwd\)/);
  assert.match(e2.details.hint, /the job's "cwd" must be the repository/);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job init refuses a builder's check that greps a file it owns, naming the check, file and task", async () => {
  const { env, repo } = await setup();
  const file = join(env.dir, "job.json");
  await writeJson(file, {
    approval: "the test",
    allowWrites: true,
    noIntegratedChecksReason: "the test stops at init",
    tasks: [{
      id: "api",
      role: "builder",
      task: "Set x to 2",
      acceptance: ["x is 2"],
      ownership: ["api"],
      checks: [{ id: "x-is-two", argv: ["grep", "-q", "x = 2", "api/x.ts"] }],
    }],
  });
  const r = await spot(env, repo, "job", "init", file);
  assert.equal(code(r), "JOB_INVALID", r.stdout + r.stderr);
  assert.equal(r.code, 2);
  const { message } = r.json.error as { message: string };
  assert.match(message, /check "x-is-two" of builder "api" \(grep -q x = 2 api\/x\.ts\) names "api\/x\.ts"/);
  assert.match(message, /a file builder "api" owns/);
  assert.doesNotMatch(message, /a check runs/, "grep reads the file; it does not run it");
  assert.match(message, /grep the directory instead \(grep -r \.\.\. api\)/);
  await Deno.remove(env.dir, { recursive: true });
});
