import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtureHome, fixtureState, writeFixtureRun } from "../tests/fixture_runs.ts";
import { loadRunDetail, LOG_TAIL_BYTES, tailLog } from "./detail.ts";

Deno.test("tailLog() reads only the end of a big log and strips terminal escapes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "worker.log");
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} \x1b[31mred\x1b[0m\x1b]0;title\x07`);
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    assert.ok((await Deno.stat(path)).size > LOG_TAIL_BYTES * 4);
    const tail = await tailLog(path, 3);
    assert.deepEqual(tail, ["line 4997 red", "line 4998 red", "line 4999 red"]);
    assert.deepEqual(await tailLog(join(dir, "missing.log")), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadRunDetail() survives torn and foreign files, and refuses a run that is not there", async () => {
  const h = await fixtureHome();
  try {
    const dir = await writeFixtureRun(h.paths, fixtureState("run-x"), {
      verification: { passed: "yes", commands: "no", security: [1, 2] },
      review: { verdict: 7, findings: [null, { priority: "P1", file: 3 }] },
    });
    await Deno.writeTextFile(join(dir, "self-review.json"), '{"summary": "cut');
    const d = await loadRunDetail(h.paths, "run-x");
    assert.ok(d);
    assert.equal(d.verificationPassed, null);
    assert.deepEqual(d.checks, []);
    assert.equal(d.selfReview, null);
    assert.deepEqual(d.review?.findings, [{ priority: "P1", file: "", line: null, problem: "" }]);
    assert.equal(await loadRunDetail(h.paths, "run-none"), null);
  } finally {
    await h.cleanup();
  }
});

Deno.test("loadRunDetail() names the job of a job task's run only when that job is on record", async () => {
  const h = await fixtureHome();
  try {
    const jobId = "job-20260101-000000-abcdef";
    await writeFixtureRun(h.paths, fixtureState(`${jobId}.api`));
    assert.equal((await loadRunDetail(h.paths, `${jobId}.api`))?.job, null, "no job dir: no link");
    await Deno.mkdir(join(h.paths.stateRoot, "jobs", jobId), { recursive: true });
    await Deno.writeTextFile(join(h.paths.stateRoot, "jobs", jobId, "job.json"), "{}");
    assert.deepEqual((await loadRunDetail(h.paths, `${jobId}.api`))?.job, { jobId, taskId: "api" });
    await writeFixtureRun(h.paths, fixtureState("run-plain"));
    assert.equal((await loadRunDetail(h.paths, "run-plain"))?.job, null);
  } finally {
    await h.cleanup();
  }
});
