/**
 * `spot job integrate` lands every builder or none, in commit and apply mode: when the second builder's checks
 * fail on the landed result, the checkout and branch are byte-identical to before, the job says which builder
 * and why (`job status`), and once the cause is fixed the same job integrates. Integration after a rollback and
 * a repair lands the new attempt, and `job cleanup` keeps every builder whose work does not stand.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sh, spot, type SpotEnv } from "../helpers.ts";
import { checkoutFiles } from "./helpers.ts";
import {
  approve,
  code,
  episode,
  fourTasks,
  init,
  replay,
  result,
  runToEnd,
  setup,
  task,
  waitToEnd,
  write,
} from "../jobs/helpers.ts";

/** The four-task graph whose ui builder's check fails once api is beside it, unless `flag` exists. */
async function graph(
  env: SpotEnv,
  repo: string,
  mode: "commit" | "apply",
  flag: string,
  ui?: Record<string, unknown>[],
) {
  const tasks = await fourTasks(
    env.dir,
    ui ?? [
      write("ui/y.ts", "export const y = 2;\n"),
      result({ summary: "y is 2", changedFiles: ["ui/y.ts"] }),
    ],
  );
  const { noChecksReason: _, ...ui2 } = tasks[2] as Record<string, unknown>;
  tasks[2] = {
    ...ui2,
    checks: [{ id: "alone", argv: ["sh", "-c", `test -e '${flag}' || ! grep -q 'x = 2' api/x.ts`] }],
  } as unknown as typeof tasks[2];
  tasks[3] = task("review", "reviewer", {
    after: ["api", "ui"],
    model: replay(await episode(env.dir, "review", [approve("api", "ui")])),
  });
  const created = await init(env, repo, { allowWrites: true, tasks, config: { integration: mode } });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  return jobId;
}

async function snapshot(repo: string) {
  return {
    head: await sh(repo, "git", "rev-parse", "HEAD"),
    branch: await sh(repo, "git", "rev-parse", "refs/heads/main"),
    status: await sh(repo, "git", "status", "--porcelain", "--ignored"),
    index: await sh(repo, "git", "ls-files", "--stage"),
    files: await checkoutFiles(repo),
  };
}

interface Status {
  integration: {
    landed: boolean;
    failure?: { task?: string; code: string };
    commits?: unknown[];
    files?: string[];
  };
}

for (const mode of ["commit", "apply"] as const) {
  Deno.test(`job integrate (${mode}): the second builder failing lands nothing; fixed, the same job lands both`, async () => {
    const { env, repo } = await setup();
    const flag = join(env.dir, "combined-is-fine");
    const jobId = await graph(env, repo, mode, flag);
    const before = await snapshot(repo);

    const failed = await spot(env, repo, "job", "integrate", jobId);
    assert.equal(code(failed), "POST_INTEGRATE_VERIFY_FAILED", failed.stdout + failed.stderr);
    assert.match((failed.json.error as { message: string }).message, /builder "ui": .*nothing landed/);
    assert.deepEqual(await snapshot(repo), before, "the checkout or branch changed");
    const status = (await spot(env, repo, "job", "status", jobId)).json as unknown as Status;
    assert.equal(status.integration.landed, false);
    assert.equal(status.integration.failure?.task, "ui");
    for (const id of ["api", "ui"]) {
      const run = JSON.parse(
        await Deno.readTextFile(join(env.stateDir, "runs", `${jobId}.${id}`, "state.json")),
      );
      assert.equal(
        run.status,
        "committed",
        `${id}'s run ended ${run.status}: the job could not integrate again`,
      );
    }
    const preview = await spot(env, repo, "job", "cleanup", jobId);
    const kept = (preview.json.retained as { task: string; reason: string }[]).filter((r) =>
      /not landed/.test(r.reason)
    );
    assert.deepEqual(kept.map((r) => r.task).sort(), ["api", "ui"]);

    await Deno.writeTextFile(flag, "");
    const landed = await spot(env, repo, "job", "integrate", jobId);
    assert.equal(landed.code, 0, landed.stdout + landed.stderr);
    assert.equal(await Deno.readTextFile(join(repo, "api/x.ts")), "export const x = 2;\n");
    assert.equal(await Deno.readTextFile(join(repo, "ui/y.ts")), "export const y = 2;\n");
    const after = (await spot(env, repo, "job", "status", jobId)).json as unknown as Status;
    assert.equal(after.integration.landed, true);
    assert.equal(after.integration.failure, undefined);
    if (mode === "commit") {
      assert.equal(await sh(repo, "git", "rev-list", "--count", `${before.head}..HEAD`), "2");
      assert.equal(after.integration.commits?.length, 2);
    } else {
      assert.equal(await sh(repo, "git", "rev-parse", "HEAD"), before.head);
      assert.deepEqual(after.integration.files, ["api/x.ts", "ui/y.ts"]);
    }
    await Deno.remove(env.dir, { recursive: true });
  });
}

Deno.test("job integrate after rollback and repair lands the new attempt; cleanup keeps the rolled-back builders", async () => {
  const { env, repo } = await setup();
  const flag = join(env.dir, "combined-is-fine");
  await Deno.writeTextFile(flag, "");
  const second = join(env.dir, "second-attempt");
  const writeY = {
    op: "exec",
    argv: [
      "sh",
      "-c",
      `if [ -e '${second}' ]; then v=3; else v=2; fi; echo "export const y = $v;" > ui/y.ts`,
    ],
  };
  const jobId = await graph(env, repo, "apply", flag, [
    writeY,
    result({ summary: "y set", changedFiles: ["ui/y.ts"] }),
  ]);
  assert.equal((await spot(env, repo, "job", "integrate", jobId)).code, 0);
  assert.equal(await Deno.readTextFile(join(repo, "ui/y.ts")), "export const y = 2;\n");
  const back = await spot(env, repo, "job", "rollback", jobId, "--confirm");
  assert.equal(back.code, 0, back.stdout + back.stderr);
  assert.equal(await Deno.readTextFile(join(repo, "ui/y.ts")), "export const y = 1;\n");

  // Rolled back, the builders' work is in their worktrees and branches only: cleanup keeps them.
  const preview = await spot(env, repo, "job", "cleanup", jobId);
  const retained = (preview.json.retained as { task: string; reason: string }[]).map((r) => r.task).sort();
  assert.deepEqual(retained, ["api", "ui"], JSON.stringify(preview.json));

  await Deno.writeTextFile(second, "");
  const repaired = await spot(env, repo, "job", "repair", jobId, "ui", "y must be 3");
  assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
  assert.equal((await spot(env, repo, "job", "resume", jobId)).code, 0);
  const done = await waitToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);

  const again = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.equal(again.json.rolledBackAt, undefined, "it printed the rolled-back record");
  assert.deepEqual(again.json.builders, [{ task: "api", runId: `${jobId}.api` }, {
    task: "ui",
    runId: `${jobId}.ui-a2`,
  }]);
  assert.equal(await Deno.readTextFile(join(repo, "ui/y.ts")), "export const y = 3;\n");
  assert.equal(await Deno.readTextFile(join(repo, "api/x.ts")), "export const x = 2;\n");

  // The replaced attempt of ui was integrated, then rolled back: its worktree goes, but its branch keeps the
  // commit of that work (nothing else does); the landed runs lose theirs.
  const cleaned = await spot(env, repo, "job", "cleanup", jobId, "--confirm");
  assert.equal(cleaned.code, 0, cleaned.stdout + cleaned.stderr);
  const removed = cleaned.json.removed as { runId: string; branch: string; branchRemoved: boolean }[];
  const old = removed.find((r) => r.runId === `${jobId}.ui`)!;
  assert.equal(old.branchRemoved, false, JSON.stringify(removed));
  assert.ok(
    (await sh(repo, "git", "branch", "--list", old.branch)).trim(),
    "the replaced attempt lost its branch",
  );
  const landed = removed.find((r) => r.runId === `${jobId}.ui-a2`)!;
  assert.equal(landed.branchRemoved, true);
  await Deno.remove(env.dir, { recursive: true });
});
