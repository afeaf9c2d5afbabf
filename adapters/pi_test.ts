import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadAdapter } from "./load.ts";

const piAdapter = (await loadAdapter("pi"))!;
import { type LaunchPlan, type LaunchSpec, newParseState, type WorkerOutcome } from "./types.ts";

const FAKE_PI = fileURLToPath(new URL("../tests/fixtures/fake-pi", import.meta.url));
const STREAMS = fileURLToPath(new URL("../tests/fixtures/pi/", import.meta.url));
const SECRET = "sk-test-not-a-real-key";

function spec(overrides: Partial<LaunchSpec> = {}): LaunchSpec {
  return {
    runId: "r1",
    phase: "run",
    worktree: "/w/tree",
    runDir: "/w/run",
    homeDir: "/w/home",
    binary: "/opt/bin/pi",
    profile: { name: "local", adapter: "pi", provider: "local", model: "demo-model", apiKeyEnv: "DEMO_KEY" },
    promptFile: "/w/run/prompt.md",
    baseEnv: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" },
    apiKey: SECRET,
    ...overrides,
  };
}

Deno.test("piAdapter plans a json-mode launch with the prompt on stdin", () => {
  const plan = piAdapter.plan(spec());
  deepStrictEqual(plan.argv, [
    "/opt/bin/pi",
    ...["-p", "--mode", "json", "--provider", "local", "--model", "demo-model", "--thinking", "high"],
    ...["--session-dir", "/w/run/pi-session", "--tools", "read,grep,find,ls,edit,write"],
    ...["--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes", "--no-context-files"],
  ]);
  equal(plan.stdinFile, "/w/run/prompt.md");
  deepStrictEqual(plan.env, {
    PATH: "/usr/bin:/bin",
    LANG: "C.UTF-8",
    HOME: "/w/home",
    PI_CODING_AGENT_DIR: "/w/home/.pi/agent",
    PI_OFFLINE: "1",
    PI_TELEMETRY: "0",
    PI_SKIP_VERSION_CHECK: "1",
    CI: "1",
    NO_COLOR: "1",
    DEMO_KEY: SECRET,
  });
  deepStrictEqual(plan.files.map((f) => f.path), ["/w/home/.pi/agent/settings.json"]);
  const settings = JSON.parse(plan.files[0].content);
  deepStrictEqual(settings, {
    quietStartup: true,
    enableInstallTelemetry: false,
    retry: { enabled: true, maxRetries: 1 },
  });
});

Deno.test("piAdapter gives self-review read-only tools and honours thinking", () => {
  const plan = piAdapter.plan(
    spec({ phase: "self-review", profile: { ...spec().profile, thinking: "off" } }),
  );
  equal(plan.argv[plan.argv.indexOf("--tools") + 1], "read,grep,find,ls");
  equal(plan.argv[plan.argv.indexOf("--thinking") + 1], "off");
  equal(piAdapter.plan(spec({ phase: "revise" })).argv.includes("read,grep,find,ls,edit,write"), true);
});

Deno.test("piAdapter declares a custom endpoint by key name and never writes the key", () => {
  const plan = piAdapter.plan(spec({ profile: { ...spec().profile, baseUrl: "http://127.0.0.1:9/v1" } }));
  const models = plan.files.find((f) => f.path === "/w/home/.pi/agent/models.json");
  ok(models, "models.json is planned");
  deepStrictEqual(JSON.parse(models.content), {
    providers: {
      local: {
        baseUrl: "http://127.0.0.1:9/v1",
        api: "openai-completions",
        apiKey: "DEMO_KEY",
        models: [{ id: "demo-model" }],
      },
    },
  });
  ok(!plan.argv.some((a) => a.includes(SECRET)));
  ok(!plan.files.some((f) => f.content.includes(SECRET)));
});

Deno.test("piAdapter leaves the key out when the profile names no variable", () => {
  const plan = piAdapter.plan(spec({ profile: { ...spec().profile, apiKeyEnv: undefined } }));
  ok(!Object.values(plan.env).includes(SECRET));
});

/** Runs a plan the way the runner does (clean env, files written, prompt on stdin) and parses its stream. */
async function runPlan(plan: LaunchPlan, cwd: string): Promise<WorkerOutcome> {
  for (const file of plan.files) {
    await Deno.mkdir(dirname(file.path), { recursive: true });
    await Deno.writeTextFile(file.path, file.content);
  }
  const [binary, ...args] = plan.argv;
  const child = new Deno.Command(binary, {
    args,
    cwd,
    env: plan.env,
    clearEnv: true,
    stdin: plan.stdinFile ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (plan.stdinFile) await (await Deno.open(plan.stdinFile)).readable.pipeTo(child.stdin);
  const out = await child.output();
  const state = newParseState();
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) piAdapter.parseLine(line, state);
  const stderrTail = new TextDecoder().decode(out.stderr);
  return piAdapter.finish({
    exitCode: out.code,
    signal: out.signal,
    timedOut: false,
    cancelled: false,
    stderrTail,
  }, state);
}

async function runFakePi(stream: string, exitCode = 0): Promise<WorkerOutcome> {
  const root = await Deno.makeTempDir({ prefix: "spot-pi-test-" });
  try {
    await Deno.mkdir(join(root, "tree"));
    await Deno.writeTextFile(join(root, "prompt.md"), "Add a greeting file\n");
    const plan = piAdapter.plan(spec({
      worktree: join(root, "tree"),
      runDir: root,
      homeDir: join(root, "home"),
      binary: FAKE_PI,
      promptFile: join(root, "prompt.md"),
      baseEnv: {
        PATH: Deno.env.get("PATH") ?? "",
        SPOT_DENO: Deno.execPath(),
        FAKE_PI_STREAM: join(STREAMS, stream),
        FAKE_PI_EXIT: String(exitCode),
      },
    }));
    return await runPlan(plan, join(root, "tree"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("piAdapter runs a fake pi end to end and sums usage", async () => {
  const outcome = await runFakePi("success.jsonl");
  equal(outcome.ok, true, JSON.stringify(outcome.failure));
  equal(outcome.text, "Added greeting.txt with a short greeting.");
  deepStrictEqual(outcome.usage, { input: 1900, output: 72, cacheRead: 2300, cacheWrite: 200 });
  ok(Math.abs(outcome.costUsd - 0.00812) < 1e-9);
});

Deno.test("piAdapter reports auth for a 401 stream although the fake exits 0", async () => {
  const outcome = await runFakePi("auth-401.jsonl");
  equal(outcome.ok, false);
  deepStrictEqual([outcome.failure?.code, outcome.failure?.class], ["auth", "blocking"]);
});

Deno.test("piAdapter calls a non-zero exit after a clean stream a crash", async () => {
  const outcome = await runFakePi("success.jsonl", 3);
  deepStrictEqual([outcome.failure?.code, outcome.failure?.class], ["cli_crash", "transient"]);
  equal(outcome.usage.input, 1900);
});
