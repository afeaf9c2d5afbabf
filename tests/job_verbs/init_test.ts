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
