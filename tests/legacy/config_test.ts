/** A config written for the original pi-worker, through the real CLI: warnings once each, then migrate. */
import assert from "node:assert/strict";
import { spot, type SpotEnv, spotEnv } from "../helpers.ts";
import { LEGACY_CONFIG } from "./fixtures.ts";

const LEGACY_KEYS = [
  "codexRateCard",
  "codexSubscription",
  "limits.piTimeoutSeconds",
  "minimumPiVersion",
  "profiles.*.monthlyPlan",
  "profiles.kimi-cli.providerType",
  "profiles.qoder-cli.model",
  "retryDelaysMs",
];

type Warning = { key: string; newKey: string | null; message: string; line: number; col: number };

async function legacyEnv(): Promise<SpotEnv> {
  const env = await spotEnv();
  await Deno.copyFile(LEGACY_CONFIG, env.configFile);
  return env;
}

/** The warnings a verb's JSON carries: each names the file, a line:col and the key, with the human line. */
function warningKeys(env: SpotEnv, warnings: unknown): string[] {
  const list = warnings as (Warning & { file?: string; text: string })[];
  for (const w of list) {
    assert.match(w.text, new RegExp(`^${env.configFile}:\\d+:\\d+ \\S+: (deprecated|ignored)`));
    assert.equal(w.text, `${env.configFile}:${w.line}:${w.col} ${w.key}: ${w.message}`);
  }
  return list.map((w) => w.key).sort();
}

function oneJsonLine(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split("\n");
  assert.equal(lines.length, 1, stdout);
  return JSON.parse(lines[0]);
}

Deno.test("the original's default config loads, each legacy key warned about once inside the JSON", async () => {
  const env = await legacyEnv();
  const validate = await spot(env, env.dir, "config", "validate");
  assert.equal(validate.code, 0, validate.stderr);
  const json = oneJsonLine(validate.stdout);
  assert.deepEqual((json.warnings as Warning[]).map((w) => w.key).sort(), LEGACY_KEYS);
  // Piped, stderr stays empty: the warnings are in the JSON (a terminal also gets them as lines).
  assert.equal(validate.stderr, "");
  assert.ok((json.profiles as string[]).includes("qoder-cli"));

  const show = await spot(env, env.dir, "config", "show");
  const config = oneJsonLine(show.stdout).config as {
    limits: Record<string, number>;
    parentRateCard: object;
  };
  assert.equal(config.limits.workerTimeoutSeconds, 1800);
  assert.ok(config.parentRateCard);
  assert.equal(show.stderr, "");

  // Any verb loads the config: its warnings come once, in its one JSON object, with the file named.
  const list = await spot(env, env.dir, "list");
  assert.equal(list.code, 0, list.stderr);
  const listed = oneJsonLine(list.stdout);
  assert.equal(listed.count, 0);
  assert.deepEqual(warningKeys(env, listed.warnings), LEGACY_KEYS);
  assert.ok((listed.warnings as { file: string }[]).every((w) => w.file === env.configFile));
  assert.equal(list.stderr, "");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a config without legacy keys prints no warning", async () => {
  const env = await spotEnv({ maxConcurrentRuns: 2 });
  for (const args of [["config", "validate"], ["list"]]) {
    const r = await spot(env, env.dir, ...args);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "");
  }
  assert.deepEqual((await spot(env, env.dir, "config", "validate")).json.warnings, []);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("config migrate keeps a backup, never overwrites one, and a second migrate changes nothing", async () => {
  const env = await legacyEnv();
  const original = await Deno.readTextFile(env.configFile);
  // Backups that may already carry this second's name (and the next ones') must survive untouched.
  const taken: string[] = [];
  for (let s = 0; s < 4; s++) {
    const stamp = new Date(Date.now() + s * 1000).toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
    taken.push(`${env.configFile}.bak-${stamp}`);
    await Deno.writeTextFile(taken[s], `older backup ${s}\n`);
  }
  const r = await spot(env, env.dir, "config", "migrate");
  assert.equal(r.code, 0, r.stderr);
  const json = oneJsonLine(r.stdout);
  assert.equal(json.command, "config migrate");
  assert.equal(json.file, env.configFile);
  assert.deepEqual((json.changes as Warning[]).map((c) => c.key).sort(), LEGACY_KEYS);
  assert.match(String(json.note), /comment/);
  const backup = String(json.backup);
  assert.ok(backup.startsWith(`${env.configFile}.bak-`), backup);
  assert.ok(!taken.includes(backup), `${backup} overwrote an existing backup`);
  assert.equal(await Deno.readTextFile(backup), original);
  for (const [s, file] of taken.entries()) assert.equal(await Deno.readTextFile(file), `older backup ${s}\n`);

  const validate = await spot(env, env.dir, "config", "validate");
  assert.equal(validate.code, 0, validate.stderr);
  assert.equal(validate.stderr, "");
  assert.deepEqual(validate.json.warnings, []);

  const migrated = await Deno.readTextFile(env.configFile);
  const again = await spot(env, env.dir, "config", "migrate");
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual([again.json.backup, again.json.changes], [null, []]);
  assert.equal(await Deno.readTextFile(env.configFile), migrated);
  const backups = [...Deno.readDirSync(env.dir)].filter((e) => e.name.includes(".bak-"));
  assert.equal(backups.length, taken.length + 1);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("config migrate refuses a config that is broken beyond its legacy keys, and writes nothing", async () => {
  const env = await spotEnv();
  const text = '{\n  "minimumPiVersion": "0.80.10",\n  "piColour": "red"\n}\n';
  await Deno.writeTextFile(env.configFile, text);
  const r = await spot(env, env.dir, "config", "migrate");
  assert.equal(r.code, 2);
  assert.match(String((r.json.error as { message: string }).message), /:3:3 piColour: Unrecognized key/);
  assert.equal(await Deno.readTextFile(env.configFile), text);
  assert.deepEqual([...Deno.readDirSync(env.dir)].filter((e) => e.name.includes(".bak-")), []);
  await Deno.remove(env.dir, { recursive: true });
});
