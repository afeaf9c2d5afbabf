/**
 * Exit codes both ways through the CLI: spot's (2-6 by kind) by default, the original pi-worker's (2 for
 * a usage error, 1 for the rest) when SPOT_EXIT_CODES or the config's `exitCodes` asks; the JSON the same.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, type SpotEnv, spotEnv } from "../helpers.ts";
import { LEGACY_CONFIG, LEGACY_RUNS, placeLegacyRuns } from "../legacy/fixtures.ts";

/** One failure of each kind that needs no worker: usage, unknown run, read-only run (refused), and success. */
const CALLS: { args: string[]; code: string | null; spot: number; original: number }[] = [
  { args: ["verfy", "--id", "x"], code: "CLI_USAGE", spot: 2, original: 2 },
  { args: ["verify", "--id", "no-such-run"], code: "RUN_NOT_FOUND", spot: 2, original: 1 },
  { args: ["verify", "--id", LEGACY_RUNS[0]], code: "RUN_READ_ONLY", spot: 6, original: 1 },
  { args: ["sandbox", "--sandbox", "none"], code: null, spot: 0, original: 0 },
];

async function legacyEnv(config?: Record<string, unknown>): Promise<SpotEnv> {
  const env = await spotEnv();
  const base = JSON.parse(await Deno.readTextFile(LEGACY_CONFIG));
  await Deno.writeTextFile(env.configFile, JSON.stringify({ ...base, ...config }, null, 2));
  await placeLegacyRuns(join(env.stateDir, "runs"));
  return env;
}

async function codes(env: SpotEnv): Promise<{ exit: number | null; code: string | null }[]> {
  const out = [];
  for (const call of CALLS) {
    const r = await spot(env, env.dir, ...call.args);
    const error = r.code === 0 ? null : JSON.parse(r.stderr.trim()) as { error: { code: string } };
    out.push({ exit: r.code, code: error?.error.code ?? null });
  }
  return out;
}

const expected = (style: "spot" | "original") => CALLS.map((c) => ({ exit: c[style], code: c.code }));

Deno.test("by default a failure exits with spot's code for its kind", async () => {
  const env = await legacyEnv();
  assert.deepEqual(await codes(env), expected("spot"));
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("SPOT_EXIT_CODES=pi-worker gives the original's codes, with the same error JSON", async () => {
  const env = await legacyEnv();
  env.env.SPOT_EXIT_CODES = "pi-worker";
  assert.deepEqual(await codes(env), expected("original"));
  env.env.SPOT_EXIT_CODES = "pi_worker";
  const bad = await spot(env, env.dir, "list");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /"code":"CLI_USAGE".*SPOT_EXIT_CODES=\\"pi_worker\\": expected spot or pi-worker/);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("the config's exitCodes gives the original's codes; SPOT_EXIT_CODES=spot wins over it", async () => {
  const env = await legacyEnv({ exitCodes: "pi-worker" });
  assert.deepEqual(await codes(env), expected("original"));
  env.env.SPOT_EXIT_CODES = "spot";
  assert.deepEqual(await codes(env), expected("spot"));
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a config that fails validation still gets the exit codes it asks for", async () => {
  const env = await spotEnv();
  await Deno.writeTextFile(
    env.configFile,
    '{\n  // written for pi-worker\n  "exitCodes": "pi-worker",\n  "bogus": 1,\n}\n',
  );
  const r = await spot(env, env.dir, "list");
  assert.equal(r.code, 1, r.stderr);
  assert.equal(JSON.parse(r.stderr.trim()).error.code, "CONFIG_INVALID");
  delete env.env.SPOT_EXIT_CODES;
  await Deno.writeTextFile(env.configFile, '{ "bogus": 1 }');
  assert.equal((await spot(env, env.dir, "list")).code, 2);
  await Deno.remove(env.dir, { recursive: true });
});
