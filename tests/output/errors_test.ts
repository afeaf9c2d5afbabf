/**
 * The error contract a parent written for the original pi-worker parses: a failure is exactly one JSON
 * object on stderr (nothing on stdout), usage errors included, and the legacy config's warnings travel
 * inside it; a success is one JSON object on stdout with the warnings inside, and stderr stays empty.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, type SpotEnv, spotEnv } from "../helpers.ts";
import { LEGACY_CONFIG, placeLegacyRuns } from "../legacy/fixtures.ts";
import { runUnderPty } from "./pty.ts";

/** The keys of the original's shipped config that spot renames or ignores (tests/legacy/config_test.ts). */
const LEGACY_KEY_COUNT = 8;

async function legacyEnv(): Promise<SpotEnv> {
  const env = await spotEnv();
  await Deno.copyFile(LEGACY_CONFIG, env.configFile);
  await placeLegacyRuns(join(env.stateDir, "runs"));
  return env;
}

type Failure = {
  ok: false;
  error: { code: string; message: string; details: Record<string, unknown> };
  warnings?: { text: string; key: string; file: string }[];
};

/** stderr must hold one JSON object and nothing else: no warning line, no commander line, no help. */
function oneJsonObject(stderr: string): Failure {
  const lines = stderr.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1, `stderr is not one line:\n${stderr}`);
  const parsed = JSON.parse(lines[0]);
  assert.equal(parsed.ok, false);
  return parsed;
}

Deno.test("every failure, usage errors included, is exactly one JSON object on stderr", async () => {
  const env = await legacyEnv();
  const usage: [string[], RegExp][] = [
    [["verfy", "--id", "x"], /unknown command 'verfy' \(Did you mean verify\?\)/],
    [["list", "--bogus"], /unknown option '--bogus'/],
    [["verify"], /required option '--id <runId>' not specified/],
    [["agent"], /^Cannot run "spot agent" alone: name one of its commands \(start, poll/],
    [["job"], /^Cannot run "spot job" alone/],
    [[], /^Cannot run "spot" alone/],
    [["list", "--limit", "x"], /as a count/],
    [["agent", "poll"], /missing required argument 'name'/],
  ];
  for (const [args, message] of usage) {
    const r = await spot(env, env.dir, ...args);
    assert.equal(r.code, 2, `spot ${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stdout, "", `spot ${args.join(" ")} printed on stdout`);
    const failure = oneJsonObject(r.stderr);
    assert.equal(failure.error.code, "CLI_USAGE");
    assert.match(failure.error.message, message);
  }
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a failing verb run against the original's config carries the legacy warnings inside its error JSON", async () => {
  const env = await legacyEnv();
  for (
    const [args, code] of [
      [["verify", "--id", "no-such-run"], "RUN_NOT_FOUND"],
      [["verify", "--id", "pw-20260714-fix-add"], "RUN_READ_ONLY"],
      [["prepare", "--task", join(env.dir, "missing.json")], "CONTRACT_INVALID"],
    ] as const
  ) {
    const r = await spot(env, env.dir, ...args);
    assert.notEqual(r.code, 0);
    assert.equal(r.stdout, "");
    const failure = oneJsonObject(r.stderr);
    assert.equal(failure.error.code, code, r.stderr);
    assert.equal(failure.warnings?.length, LEGACY_KEY_COUNT, r.stderr);
    assert.ok(failure.warnings!.some((w) => w.key === "limits.piTimeoutSeconds"));
    assert.ok(failure.warnings!.every((w) => w.file === env.configFile && w.text.startsWith(env.configFile)));
  }
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a succeeding verb keeps stderr empty and carries the warnings in its stdout JSON", async () => {
  const env = await legacyEnv();
  const r = await spot(env, env.dir, "list");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  const lines = r.stdout.trim().split("\n");
  assert.equal(lines.length, 1);
  const json = JSON.parse(lines[0]);
  assert.equal(json.ok, true);
  assert.equal(json.warnings.length, LEGACY_KEY_COUNT);
  // A config without legacy keys: no `warnings` key at all, so the JSON is what it always was.
  const clean = await spotEnv({ maxConcurrentRuns: 2 });
  const plain = await spot(clean, clean.dir, "list");
  assert.equal("warnings" in plain.json, false);
  await Deno.remove(env.dir, { recursive: true });
  await Deno.remove(clean.dir, { recursive: true });
});

Deno.test("on a terminal, a person also reads the warnings as lines, and a bare command group shows its help", async () => {
  const env = await legacyEnv();
  const list = await runUnderPty(env, ["list"]);
  const warnings = list.output.split("\n").filter((l) => l.startsWith("spot: warning: "));
  assert.equal(warnings.length, LEGACY_KEY_COUNT, list.output);
  const agent = await runUnderPty(env, ["agent"]);
  assert.equal(agent.code, 2);
  assert.match(agent.output, /^Usage: spot agent \[options\] \[command\]/m);
  // On a terminal the usage error is readable lines (piped it is the one JSON object, held above).
  assert.match(agent.output, /^spot: CLI_USAGE \(exit 2\): Cannot run "spot agent" alone/m);
  await Deno.remove(env.dir, { recursive: true });
});
