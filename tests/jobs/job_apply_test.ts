/**
 * Apply mode through the CLI: the four-task graph's builders are written into the user's checkout without a
 * commit, the index kept; `rollback --confirm` restores it byte for byte, and refuses when a file changed since.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sh, spot } from "../helpers.ts";
import {
  approve,
  code,
  episode,
  FILES,
  fourTasks,
  init,
  replay,
  result,
  runToEnd,
  setup,
  task,
  write,
} from "./helpers.ts";

async function applied() {
  const { env, repo } = await setup();
  const tasks = await fourTasks(env.dir, [
    write("ui/y.ts", "export const y = 2;\n"),
    result({ summary: "y is 2", changedFiles: ["ui/y.ts"] }),
  ]);
  tasks[3] = task("review", "reviewer", {
    after: ["api", "ui"],
    model: replay(await episode(env.dir, "review", [approve("api", "ui")])),
  });
  const created = await init(env, repo, {
    allowWrites: true,
    tasks,
    config: { integration: "apply" },
    integratedChecks: [{ id: "both", argv: ["grep", "-rq", "x = 2", "api"] }],
  });
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const head = (await sh(repo, "git", "rev-parse", "HEAD")).trim();
  const integrated = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(integrated.code, 0, integrated.stdout + integrated.stderr);
  return { env, repo, jobId, head, integrated };
}

async function snapshot(repo: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of Object.keys(FILES)) out[path] = await Deno.readTextFile(join(repo, path));
  return out;
}

Deno.test("job integrate (apply): files land in the checkout uncommitted; rollback restores it byte for byte", async () => {
  const g = await applied();
  assert.deepEqual(g.integrated.json.files, ["api/x.ts", "ui/y.ts"]);
  assert.equal(g.integrated.json.integratedChecks, "passed");
  assert.equal((await sh(g.repo, "git", "rev-parse", "HEAD")).trim(), g.head, "apply mode committed");
  assert.equal((await sh(g.repo, "git", "diff", "--cached", "--name-only")).trim(), "", "the index changed");
  assert.equal(await Deno.readTextFile(join(g.repo, "ui/y.ts")), "export const y = 2;\n");
  const preview = await spot(g.env, g.repo, "job", "rollback", g.jobId);
  assert.equal(preview.json.rolledBack, false);
  assert.equal(
    await Deno.readTextFile(join(g.repo, "api/x.ts")),
    "export const x = 2;\n",
    "a preview restored",
  );
  const back = await spot(g.env, g.repo, "job", "rollback", g.jobId, "--confirm");
  assert.equal(back.code, 0, back.stdout + back.stderr);
  assert.deepEqual(await snapshot(g.repo), FILES);
  assert.equal((await sh(g.repo, "git", "status", "--porcelain")).trim(), "");
  await Deno.remove(g.env.dir, { recursive: true });
});

Deno.test("job rollback refuses, restoring nothing, when a file changed since integration", async () => {
  const g = await applied();
  await Deno.writeTextFile(join(g.repo, "ui/y.ts"), "export const y = 3;\n");
  const back = await spot(g.env, g.repo, "job", "rollback", g.jobId, "--confirm");
  assert.equal(code(back), "ROLLBACK_REFUSED", back.stdout + back.stderr);
  assert.match((back.json.error as { message: string }).message, /changed since integration: ui\/y\.ts;/);
  assert.equal(
    await Deno.readTextFile(join(g.repo, "api/x.ts")),
    "export const x = 2;\n",
    "api was restored",
  );
  await Deno.remove(g.env.dir, { recursive: true });
});
