import assert from "node:assert/strict";
import { join } from "node:path";
import {
  approve,
  checkReviewResult,
  cleanup,
  integrate,
  isSpotError,
  prepare,
  report,
  run,
  verify,
} from "../mod.ts";
import { spawnProcess } from "../sandbox/spawn.ts";
import { sh, spotEnv, writeJson } from "../tests/helpers.ts";
import { demoScenario, FIXED_ADD } from "../tests/scenario.ts";

/**
 * The loop runs in a process of its own (this file, run by `deno run`): a worker turn ends with a reap of what
 * the launch detached, which looks at the children of the process that ran it, and the test runner's process
 * holds every other test file's children.
 */
const CHILD = "SPOT_LIBRARY_LOOP_CHILD";

Deno.test("the library's loop: prepare, run, verify, approve, integrate, report, cleanup, with the CLI's gates", async () => {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    NO_COLOR: "1",
    [CHILD]: "1",
  };
  for (const name of ["HOME", "DENO_DIR", "TMPDIR"]) {
    const value = Deno.env.get(name);
    if (value) env[name] = value;
  }
  const child = await spawnProcess([
    Deno.execPath(),
    "run",
    "-A",
    "--quiet",
    new URL(import.meta.url).pathname,
  ], {
    env,
    timeoutMs: 120_000,
  });
  assert.equal(child.exitCode, 0, child.stdout + child.stderr);
  assert.match(child.stdout, /^library loop ok$/m);
});

async function libraryLoop(): Promise<void> {
  const env = await spotEnv({ selfReview: { enabled: false } });
  try {
    const sc = await demoScenario(env.dir);
    const where = { env: env.env, cwd: sc.repo };
    const prepared = await prepare({
      ...where,
      task: sc.taskFile,
      profile: "replay",
      model: sc.episodeFile,
      sandbox: "none",
    });
    assert.equal(prepared.status, "prepared");
    const { runId } = prepared;
    assert.equal((await run({ ...where, runId })).status, "verifying");
    const verified = await verify({ ...where, runId });
    assert.equal(verified.passed, true);
    // The same refusal as the CLI: a review bound to another diff does not approve.
    const review = join(env.dir, "review.json");
    const body = { schemaVersion: 1, verdict: "approve", findings: [], verificationGaps: [], summary: "ok" };
    await writeJson(review, { ...body, diffSha256: "0".repeat(64) });
    await assert.rejects(
      approve({ ...where, runId, review, message: "Fix add()" }),
      (e) => isSpotError(e, "REVIEW_INVALID") && e.details.diffSha256 === verified.diffSha256,
    );
    await writeJson(review, { ...body, diffSha256: verified.diffSha256 });
    await checkReviewResult(await Deno.readTextFile(review));
    await approve({ ...where, runId, review, message: "Fix add()" });
    const integrated = await integrate({ ...where, runId });
    assert.equal(integrated.pushed, false);
    assert.equal(await Deno.readTextFile(join(sc.repo, "add.ts")), FIXED_ADD);
    assert.match(await sh(sc.repo, "git", "log", "-1", "--format=%s"), /Fix add\(\)/);
    const reported = await report({ ...where, runId, format: "parent" });
    assert.ok(reported.headline.length > 0 && reported.parentText);
    assert.equal((await cleanup({ ...where, runId })).cleaned, true);
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
}

if (Deno.env.get(CHILD) === "1") {
  await libraryLoop();
  console.log("library loop ok");
}
