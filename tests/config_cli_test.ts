/** Config, routing, doctor and detect through the real CLI. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { demoScenario } from "./scenario.ts";
import { ROOT, spot, spotEnv, writeJson } from "./helpers.ts";

type Err = { code: string; message: string; details: Record<string, unknown> };
const err = (json: Record<string, unknown>) => json.error as Err;

async function runIds(stateDir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(join(stateDir, "runs"))) out.push(e.name);
  } catch {
    // no runs directory: nothing was written
  }
  return out;
}

Deno.test("a config with a type error after a trailing comma is refused with its line:col and exit 2", async () => {
  const env = await spotEnv();
  await Deno.writeTextFile(
    env.configFile,
    '{\n  // JSONC: comments and trailing commas are fine\n  "maxConcurrentRuns": 2,\n  "selfReview": { "enabled": "yes" },\n}\n',
  );
  for (const args of [["config", "validate"], ["list"]]) {
    const r = await spot(env, env.dir, ...args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(err(r.json).code, "CONFIG_INVALID");
    assert.match(
      err(r.json).message,
      new RegExp(`${env.configFile}:4:19 selfReview\\.enabled: Invalid input`),
    );
  }
  await Deno.writeTextFile(
    env.configFile,
    '{\n  "maxConcurrentRuns": 2,\n  "selfReview": { "enabled": false },\n}\n',
  );
  const ok = await spot(env, env.dir, "config", "validate");
  assert.equal(ok.code, 0, ok.stderr);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("config path works without a file, and show prints the defaults without writing them", async () => {
  const env = await spotEnv();
  const path = await spot(env, env.dir, "config", "path");
  assert.deepEqual([path.json.path, path.json.exists], [env.configFile, false]);
  const show = await spot(env, env.dir, "config", "show");
  const config = show.json.config as { profiles: Record<string, unknown>; alwaysLockedPaths: string[] };
  assert.ok(config.profiles["qoder-cli"] && config.profiles.replay);
  assert.ok(config.alwaysLockedPaths.length > 0);
  assert.equal((await spot(env, env.dir, "config", "path")).json.exists, false, "show only looks");
  await Deno.remove(env.dir, { recursive: true });
});

async function doctorEnv(modelsApiKey: string) {
  const env = await spotEnv({
    defaultProfile: "ds",
    profiles: {
      ds: {
        adapter: "pi",
        provider: "deepseek",
        model: "deepseek-v4-flash",
        apiKeyEnv: "DEEPSEEK_API_KEY",
        binary: join(ROOT, "tests", "fixtures", "fake-pi"),
        costTier: "cheap",
      },
    },
  });
  const modelsFile = join(env.dir, "models.json");
  await writeJson(modelsFile, {
    providers: { deepseek: { api: "openai-completions", apiKey: modelsApiKey } },
  });
  Object.assign(env.env, { PI_WORKER_MODELS_FILE: modelsFile, DEEPSEEK_API_KEY: "sk-test-not-real" });
  return { env, modelsFile };
}

Deno.test("doctor catches a models.json key variable that differs from apiKeyEnv and prints the fix", async () => {
  const { env, modelsFile } = await doctorEnv("$DS_KEY");
  const r = await spot(env, env.dir, "doctor");
  assert.equal(r.code, 3, r.stderr);
  assert.equal(err(r.json).code, "DOCTOR_FAILED");
  assert.ok(
    err(r.json).message.includes(
      `fix: set providers.deepseek.apiKey to "$DEEPSEEK_API_KEY" in ${modelsFile}`,
    ),
    err(r.json).message,
  );
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("doctor passes when models.json names the profile's variable, and says which profile it checked", async () => {
  const { env } = await doctorEnv("${DEEPSEEK_API_KEY}");
  const r = await spot(env, env.dir, "doctor");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.profile, "ds");
  assert.equal(r.json.profileSource, "default");
  assert.match(String(r.json.reason), /no --task: doctor checks defaultProfile/);
  assert.deepEqual(r.json.fallbackChain, []);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("doctor names a similar variable and a profile whose key is set when a key is missing", async () => {
  const { env } = await doctorEnv("$DEEPSEEK_API_KEY");
  delete env.env.DEEPSEEK_API_KEY;
  env.env.DEEPSEEK_KEY = "sk-test";
  const r = await spot(env, env.dir, "doctor", "--profile", "ds");
  assert.equal(r.code, 3);
  assert.match(
    err(r.json).message,
    /DEEPSEEK_API_KEY is not set \(set but differently named: DEEPSEEK_KEY\)/,
  );
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("prepare without --profile routes by difficulty and records the decision on the run", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  await writeJson(env.configFile, {
    callerProfiles: { codex: "mid" },
    profiles: {
      low: {
        adapter: "replay",
        provider: "replay",
        model: sc.episodeFile,
        costTier: "cheap",
        fallbackProfiles: ["mid"],
      },
      mid: { adapter: "replay", provider: "replay", model: sc.episodeFile, costTier: "standard" },
    },
  });
  const r = await spot(env, sc.repo, "prepare", "--task", sc.taskFile);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.profile, "low");
  const routing = JSON.parse(
    await Deno.readTextFile(join(env.stateDir, "runs", String(r.json.runId), "routing.json")),
  );
  assert.equal(routing.profileSource, "difficulty");
  assert.equal(routing.difficulty, "low");
  assert.equal(routing.difficultySource, "explicit");
  assert.equal(routing.targetTier, "cheap");
  assert.deepEqual(routing.candidatesConsidered, ["low"]);
  assert.deepEqual(routing.fallbackChain, ["mid"]);
  assert.equal(typeof routing.score, "number");
  assert.ok(Array.isArray(routing.signals));
  env.env.PARENT_AGENT = "codex";
  const byCaller = await spot(env, sc.repo, "prepare", "--task", sc.taskFile);
  assert.equal(byCaller.json.profile, "mid", byCaller.stderr);
  assert.equal(byCaller.json.caller, "codex");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("prepare pins qoder's free alias and records each snapped setting as a worker_warning", async () => {
  const env = await spotEnv({
    profiles: {
      q: {
        adapter: "qoder",
        provider: "qoder",
        model: "free",
        reasoningEffort: "medium",
        maxContextSize: 300000,
      },
    },
  });
  const sc = await demoScenario(env.dir);
  const r = await spot(env, sc.repo, "prepare", "--task", sc.taskFile, "--profile", "q");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.model, "DeepSeek-Flash");
  const dir = join(env.stateDir, "runs", String(r.json.runId));
  const events = (await Deno.readTextFile(join(dir, "events.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const warnings = events.filter((e) => e.type === "worker_warning").map((e) => e.message);
  assert.equal(warnings.length, 3, warnings.join("\n"));
  assert.match(
    await Deno.readTextFile(join(dir, "worker.log")),
    /warning: reasoningEffort "medium" is not offered/,
  );
  const routing = JSON.parse(await Deno.readTextFile(join(dir, "routing.json")));
  assert.deepEqual(routing.worker, {
    model: "DeepSeek-Flash",
    reasoningEffort: "high",
    maxContextSize: 400000,
    resolvedFrom: "free",
    catalogSource: "fixture",
  });
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("prepare --select-worker true without a terminal is refused and writes nothing", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const r = await spot(env, sc.repo, "prepare", "--task", sc.taskFile, "--select-worker", "true");
  assert.equal(r.code, 2, r.stderr);
  assert.equal(err(r.json).code, "CLI_USAGE");
  assert.deepEqual(await runIds(env.stateDir), []);
  const bad = await spot(env, sc.repo, "prepare", "--task", sc.taskFile, "--select-worker", "yes");
  assert.equal(bad.code, 2);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("detect prints JSON when stdout is not a terminal and answers from its cache the second time", async () => {
  const env = await spotEnv();
  const first = await spot(env, env.dir, "detect");
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.json.cached, false);
  const registry = first.json.registry as { clis: { adapter: string }[] };
  assert.ok(registry.clis.some((c) => c.adapter === "pi"));
  assert.equal((await spot(env, env.dir, "detect")).json.cached, true);
  assert.equal((await spot(env, env.dir, "detect", "--refresh")).json.cached, false);
  await Deno.remove(env.dir, { recursive: true });
});
