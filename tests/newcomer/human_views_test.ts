/**
 * On a terminal, doctor, sandbox, gc, recover and discard show a readable view and an error shows readable
 * lines (a contract's problems one per line, no literal "\n"); piped or with `--json` each prints exactly the
 * JSON it always did. A newcomer saw one long JSON line for each.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario, prepareScenario } from "../scenario.ts";
import { runUnderPty } from "../output/pty.ts";

/** The JSON a verb prints, without the time it was decided (sandbox's `decidedAt`). */
function stable(text: string): unknown {
  const json = JSON.parse(text);
  delete json.decidedAt;
  return json;
}

Deno.test("doctor, sandbox, gc, recover and discard show a view on a terminal and keep their JSON piped", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const toRecover = await prepareScenario(env, sc, "--sandbox", "none");
  const toDiscard = await prepareScenario(env, sc, "--sandbox", "none");
  const doctor = [
    "doctor",
    "--task",
    sc.taskFile,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
    "--sandbox",
    "none",
  ];
  const views: [string[], RegExp][] = [
    [doctor, /^doctor {2}ready\n {2}worker +replay \(from flag\)[^\n]*\n[\s\S]*\n {2}ok +deno +/],
    [
      ["sandbox", "--sandbox", "none"],
      /^sandbox {2}none: no OS sandbox \(opted out\)[^\n]*\n {2}why {2}"none" from the --sandbox flag/,
    ],
    [["gc"], /^gc {2}preview: nothing was removed; ended runs untouched for 7d\n/],
    [
      ["recover", "--id", toRecover],
      new RegExp(`^run ${toRecover} {2}prepared {2}nothing to recover\n {2}why `),
    ],
  ];
  for (const [args, view] of views) {
    const shown = await runUnderPty(env, args, { cwd: sc.repo });
    assert.equal(shown.code, 0, shown.output);
    assert.match(shown.output, view, args.join(" "));
    assert.ok(!shown.output.includes('{"ok":'), `${args[0]} printed JSON on a terminal: ${shown.output}`);
    const onTty = await runUnderPty(env, [...args, "--json"], { cwd: sc.repo });
    const piped = await spot(env, sc.repo, ...args);
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stdout.trim().split("\n").length, 1, "piped: one JSON line");
    assert.deepEqual(stable(onTty.output), stable(piped.stdout), `${args[0]} --json on a terminal`);
  }
  const discarded = await runUnderPty(env, ["discard", "--id", toDiscard], { cwd: sc.repo });
  assert.match(
    discarded.output,
    new RegExp(`^run ${toDiscard} {2}discarded \\(it was prepared\\)\n {2}diff `),
  );
  const again = await spot(env, sc.repo, "discard", "--id", toDiscard);
  assert.equal(JSON.parse(again.stdout).alreadyDiscarded, true);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("an error on a terminal is readable lines; piped it is the one JSON object it always was", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const bad = join(env.dir, "bad-task.json");
  await writeJson(bad, { ...JSON.parse(await Deno.readTextFile(sc.taskFile)), goal: "short", bogus: 1 });
  const shown = await runUnderPty(env, ["prepare", "--task", bad], { cwd: sc.repo });
  assert.equal(shown.code, 2);
  const lines = shown.output.split("\n");
  assert.match(
    lines[0],
    /^spot: CONTRACT_INVALID \(exit 2\): Cannot accept task contract "[^"]+": 2 problem\(s\)$/,
  );
  assert.match(lines[1], /^ {2}\S+bad-task\.json:\d+:\d+ goal: /);
  assert.match(lines[2], /^ {2}\S+bad-task\.json:\d+:\d+ bogus: /);
  assert.ok(!shown.output.includes("\\n") && !shown.output.includes('{"ok"'), shown.output);

  const piped = await spot(env, sc.repo, "prepare", "--task", bad);
  assert.equal(piped.code, 2);
  assert.equal(piped.stdout, "");
  const errorLines = piped.stderr.trim().split("\n");
  assert.equal(errorLines.length, 1, "piped: exactly one JSON object on stderr");
  const error = JSON.parse(errorLines[0]);
  assert.equal(error.ok, false);
  assert.equal(error.error.code, "CONTRACT_INVALID");
  assert.match(error.error.message, /\n\S+bad-task\.json:\d+:\d+ goal: /);
  await Deno.remove(env.dir, { recursive: true });
});
