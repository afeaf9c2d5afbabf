/**
 * How a real pi reaches its provider from inside bwrap, end to end against the scripted model server:
 * through the forwarder, with the upstream taken from the provider the user declared in pi's own
 * models.json (the user's file reaches the worker's private home too, and is gone after the turn); and
 * through the allowlist proxy, which refuses a provider that is not on the profile's list and records it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, spot, spotEnv, writeJson } from "../helpers.ts";
import { startModelServer } from "../model_server/mod.ts";
import { piBinary } from "../projects/harness.ts";

const FILE = "hello.txt";
const CONTENT = "hello from the scripted model\n";
const KEY = "sk-network-test-not-real";

async function scenario(profile: Record<string, unknown>, extraEnv: Record<string, string> = {}) {
  const env = await spotEnv({
    selfReview: { enabled: false },
    limits: { workerIdleSeconds: 20 },
    profiles: { p: profile },
  });
  Object.assign(env.env, { MY_PLAN_KEY: KEY }, extraEnv);
  const repo = await makeRepo({ "README.md": "# net\n" }, env.dir);
  const taskFile = join(env.dir, "task.json");
  await writeJson(taskFile, {
    schemaVersion: 1,
    goal: `Create ${FILE}`,
    allowedPaths: [FILE],
    acceptanceCriteria: [`${FILE} exists`],
    verification: [{ argv: ["true"], timeoutSeconds: 10 }],
    risk: "low",
  });
  return { env, repo, taskFile };
}

Deno.test({
  name:
    "pi's own models.json: a provider the user declared there is reached through the forwarder, its file copied in and removed after",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = startModelServer({ file: FILE, content: CONTENT });
    const agent = await Deno.makeTempDir({ prefix: "spot-pi-agent-" });
    await writeJson(join(agent, "models.json"), {
      providers: {
        "my-plan": {
          baseUrl: `${server.url}/v1`,
          api: "openai-completions",
          apiKey: "MY_PLAN_KEY",
          models: [{ id: "scripted-model" }],
        },
      },
    });
    const profile = {
      adapter: "pi",
      provider: "my-plan",
      model: "scripted-model",
      apiKeyEnv: "MY_PLAN_KEY",
      binary: piBinary(),
    };
    const { env, repo, taskFile } = await scenario(profile, { PI_CODING_AGENT_DIR: agent });
    try {
      const doctor = await spot(env, repo, "doctor", "--profile", "p", "--sandbox", "bwrap");
      const line = (doctor.json.checks as { name: string; detail: string }[]).find((c) =>
        c.name === "network"
      );
      assert.match(line?.detail ?? "", /forwarder to http:\/\/127\.0\.0\.1:\d+\/v1 \(from pi-models/);
      const prep = await spot(
        env,
        repo,
        "prepare",
        "--task",
        taskFile,
        "--profile",
        "p",
        "--sandbox",
        "bwrap",
      );
      assert.equal(prep.code, 0, prep.stderr);
      const runDir = join(env.stateDir, "runs", String(prep.json.runId));
      server.workdir = JSON.parse(await Deno.readTextFile(join(runDir, "state.json"))).worktreePath;
      const run = await spot(env, repo, "run", "--id", String(prep.json.runId));
      assert.equal(run.code, 0, run.stderr);
      assert.ok(
        server.requests.length > 0 && server.requests.every((r) => r.key === KEY),
        "the forwarder put the key in",
      );
      const forwarded = await Deno.readTextFile(join(runDir, "forwarder.jsonl"));
      assert.match(forwarded, /"status":200/);
      // The user's models.json was merged into the home pi read, then removed with the turn.
      const homes = [...Deno.readDirSync(join(runDir, "homes"))].map((e) => join(runDir, "homes", e.name));
      for (const home of homes) {
        assert.equal(await Deno.stat(join(home, ".pi", "agent", "models.json")).catch(() => null), null);
      }
      // Without the OS sandbox pi reads the user's own file, copied into its private home: nothing else
      // tells it where "my-plan" is.
      const bare = await spot(
        env,
        repo,
        "prepare",
        "--task",
        taskFile,
        "--profile",
        "p",
        "--sandbox",
        "none",
      );
      assert.equal(bare.code, 0, bare.stderr);
      const bareDir = join(env.stateDir, "runs", String(bare.json.runId));
      server.workdir = JSON.parse(await Deno.readTextFile(join(bareDir, "state.json"))).worktreePath;
      const before = server.requests.length;
      const bareRun = await spot(env, repo, "run", "--id", String(bare.json.runId));
      assert.equal(bareRun.code, 0, bareRun.stderr);
      assert.ok(server.requests.length > before, "pi found my-plan in the copied models.json");
    } finally {
      await Deno.remove(env.dir, { recursive: true });
      await Deno.remove(agent, { recursive: true });
    }
  },
});

Deno.test({
  name: "the allowlist proxy refuses a provider that is not on the profile's list, and records the refusal",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = startModelServer({ file: FILE, content: CONTENT });
    const profile = {
      adapter: "pi",
      provider: "scripted",
      model: "scripted-model",
      apiKeyEnv: "MY_PLAN_KEY",
      baseUrl: `${server.url}/v1`,
      binary: piBinary(),
      maxRetries: 0,
      egress: "allowlist",
      egressHosts: ["127.0.0.1:9"],
    };
    const { env, repo, taskFile } = await scenario(profile);
    try {
      const prep = await spot(
        env,
        repo,
        "prepare",
        "--task",
        taskFile,
        "--profile",
        "p",
        "--sandbox",
        "bwrap",
      );
      assert.equal(prep.code, 0, prep.stderr);
      const runDir = join(env.stateDir, "runs", String(prep.json.runId));
      const run = await spot(env, repo, "run", "--id", String(prep.json.runId));
      assert.notEqual(run.code, 0, "the worker never reached its provider");
      assert.equal(server.requests.length, 0);
      const log = await Deno.readTextFile(join(runDir, "worker-egress.jsonl"));
      assert.match(
        log,
        new RegExp(`"decision":"refused".*127\\.0\\.0\\.1:${server.port} is not on the allowlist`),
      );
    } finally {
      await Deno.remove(env.dir, { recursive: true });
    }
  },
});
