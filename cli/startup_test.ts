/** `--timings`, and the start-up shortcuts that must not change what a verb does. */
import assert from "node:assert/strict";
import { spot, spotEnv } from "../tests/helpers.ts";
import { demoScenario, prepareScenario } from "../tests/scenario.ts";

Deno.test("--timings and SPOT_TIMINGS add the table on stderr and leave stdout one JSON object", async () => {
  const env = await spotEnv({ selfReview: { enabled: false } });
  try {
    const sc = await demoScenario(env.dir);
    const prep = await spot(
      env,
      sc.repo,
      "--timings",
      "prepare",
      "--task",
      sc.taskFile,
      "--profile",
      "replay",
      "--model",
      sc.episodeFile,
      "--sandbox",
      "none",
    );
    assert.equal(prep.code, 0, prep.stderr);
    assert.equal(JSON.parse(prep.stdout).command, "prepare");
    assert.match(prep.stderr, /^spot timings: [\d.]+ ms wall$/m);
    for (
      const row of [
        "deno start and module loading",
        "context (paths, config)",
        "verb prepare",
        "import verbs/prepare.ts",
        "git rev-parse",
      ]
    ) {
      assert.ok(prep.stderr.includes(row), `no "${row}" row in:\n${prep.stderr}`);
    }
    const id = String(prep.json.runId);
    const quiet = await spot(env, sc.repo, "inspect", "--id", id);
    assert.equal(quiet.stderr, "", "without the flag nothing is added");
    env.env.SPOT_TIMINGS = "1";
    const inspect = await spot(env, sc.repo, "inspect", "--id", id);
    assert.equal(inspect.code, 0);
    assert.equal(JSON.parse(inspect.stdout).state.runId, id);
    assert.match(inspect.stderr, /verb inspect/);
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});

Deno.test("inspect reads no config (it works with a broken one), while a verb that needs it still refuses", async () => {
  const env = await spotEnv({ selfReview: { enabled: false } });
  try {
    const sc = await demoScenario(env.dir);
    const id = await prepareScenario(env, sc, "--sandbox", "none");
    await Deno.writeTextFile(env.configFile, '{ "sandbox": "sometimes" }');
    const inspect = await spot(env, sc.repo, "inspect", "--id", id);
    assert.equal(inspect.code, 0, inspect.stderr);
    const run = await spot(env, sc.repo, "run", "--id", id);
    assert.equal((run.json.error as { code: string }).code, "CONFIG_INVALID");
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});

Deno.test("a call the fast parser leaves to commander still gets commander's help and errors", async () => {
  const env = await spotEnv();
  try {
    const help = await spot(env, env.dir, "inspect", "--help");
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--id <runId>/);
    const missing = await spot(env, env.dir, "inspect");
    assert.equal(missing.code, 2);
    assert.match((missing.json.error as { message: string }).message, /required option '--id <runId>'/);
    const typo = await spot(env, env.dir, "inspekt", "--id", "x");
    assert.match((typo.json.error as { message: string }).message, /unknown command 'inspekt'/);
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});

Deno.test("--version and -V print deno.json's version as commander would, and a version with more is commander's", async () => {
  const env = await spotEnv();
  try {
    const { version } = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
    for (const flag of ["--version", "-V"]) {
      const r = await spot(env, env.dir, flag);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, `${version}\n`, ""]);
    }
    // Anything after it is commander's to judge (here: the version, as commander prints it first).
    const more = await spot(env, env.dir, "--version", "list");
    assert.deepEqual([more.code, more.stdout], [0, `${version}\n`]);
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});
