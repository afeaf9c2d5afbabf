/**
 * A parent written for the original pi-worker, switched to spot by changing one command: it follows the
 * original skill's closed loop word for word (its commands, flags and file names, `PARENT_AGENT=codex`,
 * no `--profile`, the original's config, contract and review files) and parses the output the way the
 * original's contract says: on success exactly one JSON line on stdout with `ok: true` and the command's
 * name, and nothing on stderr; on failure a non-zero exit and exactly one JSON object on stderr. The worker
 * is the original's own setup: the config's routed `pi` profile, found through `PI_WORKER_PI_BIN`, here a
 * fake pi (tests/fixtures/fake-pi) that edits the file and streams a recorded successful turn.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, spot, type SpotEnv, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario, FIXED_ADD } from "../scenario.ts";
import { chunk, EXPECTED, fixtureLines, liveSession } from "../fixtures/parent/fixture.ts";
import { LEGACY_CONFIG, originalContract } from "./fixtures.ts";

/** A fake pi that does the work (the fix) and then speaks pi's stream, like the original's test worker. */
async function fakeWorkingPi(dir: string): Promise<string> {
  const path = join(dir, "pi");
  const fixed = JSON.stringify(FIXED_ADD);
  await Deno.writeTextFile(
    path,
    // Only a turn (pi's json mode) does the work; doctor's `pi --version` must not touch the checkout.
    `#!/bin/sh\ncase " $* " in *" --mode json "*) printf '%s' ${
      fixed.replaceAll("\\n", "\n")
    } > add.ts ;; esac\n` +
      `FAKE_PI_STREAM='${join(ROOT, "tests", "fixtures", "pi", "success.jsonl")}' ` +
      `exec '${join(ROOT, "tests", "fixtures", "fake-pi")}' "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

type Json = Record<string, unknown>;

/** What the original's contract promises a caller on success. */
async function step(env: SpotEnv, cwd: string, command: string, ...flags: string[]): Promise<Json> {
  const r = await spot(env, cwd, command, ...flags);
  assert.equal(r.code, 0, `${command}: exit ${r.code}: ${r.stderr}`);
  assert.equal(r.stderr, "", `${command} wrote on stderr`);
  const lines = r.stdout.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1, `${command}: stdout is not one line`);
  const json = JSON.parse(lines[0]);
  assert.equal(json.ok, true);
  assert.equal(json.command, command);
  return json;
}

/** ... and on failure. */
async function refused(env: SpotEnv, cwd: string, command: string, ...flags: string[]): Promise<Json> {
  const r = await spot(env, cwd, command, ...flags);
  assert.notEqual(r.code, 0);
  assert.equal(r.stdout, "");
  const lines = r.stderr.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1, `${command}: stderr is not one JSON object:\n${r.stderr}`);
  const json = JSON.parse(lines[0]);
  assert.equal(json.ok, false);
  return json.error;
}

Deno.test("the original skill's closed loop, as its text instructs, reaches integrated through spot", async () => {
  const env = await spotEnv();
  try {
    await Deno.copyFile(LEGACY_CONFIG, env.configFile);
    const codexHome = join(env.dir, "codex-home");
    const lines = await fixtureLines("codex");
    await liveSession("codex", codexHome, chunk(lines, 0, EXPECTED.codex.splitLine));
    Object.assign(env.env, {
      PARENT_AGENT: "codex",
      CODEX_HOME: codexHome,
      CODEX_THREAD_ID: EXPECTED.codex.threadId,
      // A home of its own (no ~/.pi/agent/models.json); Deno's module cache stays where it is.
      HOME: join(env.dir, "home"),
      DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
      // The original's variables: the routed profile's key, and where its pi binary is.
      DEEPSEEK_API_KEY: "sk-test-not-a-real-key-0000",
      PI_WORKER_PI_BIN: await fakeWorkingPi(env.dir),
    });
    const sc = await demoScenario(env.dir);
    const id = "pw-skill-loop-1";

    // 1. A unique run id, and the parent meter before planning, to the file name the skill gives.
    const start = join(env.dir, `pi-worker-${id}-parent-start.json`);
    const meter = await step(env, sc.repo, "parent-meter", "--output", start);
    assert.equal(meter.available, true);
    // 2. A task JSON in the original's schema (runId, repositoryRoot, baseRevision; no difficulty).
    const task = join(env.dir, `pi-worker-${id}-task.json`);
    await writeJson(task, await originalContract(sc.repo, id));
    // 3. doctor without --profile (the routed profile), prepare with --usage-start, run.
    const doctor = await step(env, sc.repo, "doctor", "--task", task);
    assert.equal(doctor.status, "ready");
    const prepared = await step(env, sc.repo, "prepare", "--task", task, "--usage-start", start);
    assert.deepEqual([prepared.runId, prepared.status], [id, "prepared"]);
    assert.equal(typeof prepared.worktreePath, "string");
    // A step out of order is refused the original's way: non-zero, one JSON object on stderr.
    const early = await refused(env, sc.repo, "integrate", "--id", id);
    assert.equal(early.code, "STATE_INVALID");
    const ran = await step(env, sc.repo, "run", "--id", id);
    assert.equal(ran.status, "verifying");
    // 4. verify; the skill reads verification.json.
    const verified = await step(env, sc.repo, "verify", "--id", id);
    assert.equal(verified.passed, true);
    const verification = JSON.parse(await Deno.readTextFile(String(verified.verificationFile)));
    assert.equal(verification.passed, true);
    assert.equal(
      verification.security.diffSha256,
      verified.diffSha256,
      "where the original's revise read it",
    );
    assert.equal(verification.commands[0].code, 0, "the original's name for a check's exit code");
    // 5. selfReviewing: self-review (a diff this small is skipped, as the original skipped it too).
    if (verified.status === "selfReviewing") {
      const review = await step(env, sc.repo, "self-review", "--id", id);
      assert.equal(review.status, "reviewing");
    }
    // 7. approve immediately with the original's review file, then integrate.
    const reviewFile = join(env.dir, `pi-worker-${id}-review.json`);
    await writeJson(reviewFile, {
      schemaVersion: 1,
      verdict: "approve",
      diffSha256: verified.diffSha256,
      findings: [],
      verificationGaps: [],
      summary: "checks pass; add.ts only",
    });
    const approved = await step(
      env,
      sc.repo,
      "approve",
      "--id",
      id,
      "--review",
      reviewFile,
      "--message",
      "Fix add()",
    );
    assert.equal(approved.status, "committed");
    const integrated = await step(env, sc.repo, "integrate", "--id", id);
    assert.deepEqual([integrated.status, integrated.pushed], ["integrated", false]);
    assert.match(await Deno.readTextFile(join(sc.repo, "add.ts")), /a \+ b/);
    // 8. report for every created run, then cleanup.
    const report = await step(env, sc.repo, "report", "--id", id);
    assert.equal(typeof report.reportFile, "string");
    await step(env, sc.repo, "cleanup", "--id", id);

    const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "state.json")));
    assert.deepEqual([state.status, state.caller, state.adapter, state.profile], [
      "integrated",
      "codex",
      "pi",
      "deepseek",
    ]);
    // The legacy config's warnings were in every JSON, never on stderr (checked by step()).
    assert.ok(Array.isArray(prepared.warnings) && prepared.warnings.length > 0);
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});
