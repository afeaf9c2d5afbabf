/**
 * Gates no flag opens: a high-risk task never reaches a worker, a task never goes to a profile without the
 * modality it needs (named, picked, or reached through a fallback chain), and a run id cannot name a
 * directory outside the runs folder.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario, FIXED_ADD, prepareScenario } from "../scenario.ts";

async function withRisk(taskFile: string, patch: Record<string, unknown>): Promise<void> {
  const task = JSON.parse(await Deno.readTextFile(taskFile));
  await writeJson(taskFile, { ...task, ...patch });
}

async function runDirs(stateDir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(join(stateDir, "runs"))) out.push(e.name);
  } catch { /* no runs folder yet */ }
  return out;
}

Deno.test("corpus: a high-risk task is HIGH_RISK_BLOCKED even with --profile, and nothing is written", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  await withRisk(sc.taskFile, { risk: "high" });
  const r = await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    sc.taskFile,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
  );
  assert.equal(r.code, 4, r.stderr);
  assert.equal((r.json.error as { code: string }).code, "HIGH_RISK_BLOCKED");
  assert.deepEqual(await runDirs(env.stateDir), []);
  const doctor = await spot(env, sc.repo, "doctor", "--task", sc.taskFile, "--profile", "replay");
  assert.equal(
    (doctor.json.error as { code: string }).code,
    "HIGH_RISK_BLOCKED",
    "doctor agrees with prepare",
  );
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("corpus: a vision task on a text-only profile named with --profile is CAPABILITY_MISMATCH", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  await withRisk(sc.taskFile, { requiredCapabilities: ["text", "code", "vision-input"] });
  const r = await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    sc.taskFile,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
  );
  assert.equal(r.code, 2, r.stderr);
  const error = r.json.error as { code: string; message: string };
  assert.equal(error.code, "CAPABILITY_MISMATCH");
  assert.match(error.message, /vision-input/);
  assert.deepEqual(await runDirs(env.stateDir), []);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("corpus: a failing self-review turn never falls back to a profile without the task's modality", async () => {
  const replay = {
    adapter: "replay",
    provider: "replay",
    model: "",
    capabilities: ["text", "code", "tool-use"],
  };
  const env = await spotEnv({
    selfReview: { minDiffBytes: 0, minSurfaceBytes: 0 },
    profiles: {
      seeing: { ...replay, modalities: ["text", "vision"], fallbackProfiles: ["blind"] },
      blind: { ...replay, modalities: ["text"] },
    },
  });
  const sc = await demoScenario(env.dir, [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    {
      op: "fail",
      phase: "self-review",
      message: "429 Rate limit reached for requests (rate_limit_exceeded)",
    },
  ]);
  await withRisk(sc.taskFile, { requiredCapabilities: ["text", "code", "vision-input"] });
  const prep = await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    sc.taskFile,
    "--profile",
    "seeing",
    "--model",
    sc.episodeFile,
  );
  assert.equal(prep.code, 0, prep.stderr);
  const id = String(prep.json.runId);
  assert.equal((await spot(env, sc.repo, "run", "--id", id)).code, 0);
  assert.equal((await spot(env, sc.repo, "verify", "--id", id)).json.status, "selfReviewing");
  const self = await spot(env, sc.repo, "self-review", "--id", id);
  assert.equal(self.json.reason, "worker-failed", self.stdout + self.stderr);
  const events = await Deno.readTextFile(join(env.stateDir, "runs", id, "events.jsonl"));
  assert.doesNotMatch(events, /Falling back to profile blind/, "the text-only profile must never be tried");
  const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "state.json")));
  assert.equal(state.profile, "seeing");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("corpus: a run id that climbs out of the runs folder is refused before any file is read", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const id = await prepareScenario(env, sc, "--sandbox", "none");
  // A planted run directory beside the runs folder: `--id ../planted` would read it.
  const planted = join(env.stateDir, "planted");
  await Deno.mkdir(planted, { recursive: true });
  await Deno.copyFile(join(env.stateDir, "runs", id, "state.json"), join(planted, "state.json"));
  await Deno.copyFile(join(env.stateDir, "runs", id, "task.json"), join(planted, "task.json"));
  for (const verb of ["inspect", "report", "cleanup"]) {
    const r = await spot(env, sc.repo, verb, "--id", "../planted");
    assert.equal(r.code, 2, `${verb}: ${r.stdout}${r.stderr}`);
    assert.equal((r.json.error as { code: string }).code, "RUN_NOT_FOUND", verb);
  }
  assert.equal((await spot(env, sc.repo, "inspect", "--id", id)).code, 0, "a real id still works");
  await Deno.remove(env.dir, { recursive: true });
});
