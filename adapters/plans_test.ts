/** Launch plans of the CLI adapters: keys by env only, private HOME, the CLI's own config and knobs. */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { getAdapter } from "./mod.ts";
import type { LaunchPlan, LaunchSpec } from "./types.ts";

const SECRET = "sk-test-not-a-real-key";

function spec(
  adapter: string,
  overrides: Partial<LaunchSpec["profile"]> = {},
  phase: LaunchSpec["phase"] = "run",
): LaunchSpec {
  return {
    runId: "r1",
    phase,
    worktree: "/w/tree",
    runDir: "/w/run",
    homeDir: "/w/run/homes/run-r0-a1",
    binary: `/opt/bin/${adapter}`,
    profile: {
      name: "p",
      adapter,
      provider: "acme",
      model: "acme-coder",
      apiKeyEnv: "ACME_KEY",
      baseUrl: "http://127.0.0.1:9/v1",
      ...overrides,
    },
    promptFile: "/w/run/prompt.md",
    prompt: "Fix the bug",
    baseEnv: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" },
    apiKey: SECRET,
  };
}

function plan(
  adapter: string,
  overrides: Partial<LaunchSpec["profile"]> = {},
  phase: LaunchSpec["phase"] = "run",
): LaunchPlan {
  const a = getAdapter(adapter);
  ok(a, adapter);
  return a.plan(spec(adapter, overrides, phase));
}

function file(p: LaunchPlan, suffix: string): string {
  const found = p.files.find((f) => f.path.endsWith(suffix));
  ok(found, `no ${suffix} in ${p.files.map((f) => f.path).join(", ")}`);
  return found.content;
}

const CLIS = ["opencode", "codex", "claude", "gemini", "qwen", "kilo"];

Deno.test("every CLI plan keeps the key off argv and out of files, and gives the CLI a private HOME", () => {
  for (const cli of CLIS) {
    const p = plan(cli);
    ok(!p.argv.join(" ").includes(SECRET), `${cli}: key on argv`);
    ok(p.files.every((f) => !f.content.includes(SECRET)), `${cli}: key in a config file`);
    equal(p.env.ACME_KEY, SECRET, `${cli}: the profile's key variable is set`);
    equal(p.env.HOME, "/w/run/homes/run-r0-a1", cli);
    ok(p.env.TMPDIR.startsWith(p.env.HOME), `${cli}: TMPDIR inside HOME`);
    ok(p.files.every((f) => f.path.startsWith("/w/run/")), `${cli}: files outside the run dir`);
    equal(p.argv[0], `/opt/bin/${cli}`);
  }
});

Deno.test("CLIs that hang on an open stdin get the prompt from a file that ends, or on argv", () => {
  const byStdin = ["codex", "claude"];
  for (const cli of CLIS) {
    const p = plan(cli);
    if (byStdin.includes(cli)) {
      equal(p.stdinFile, "/w/run/prompt.md", cli);
      ok(!p.argv.includes("Fix the bug"), cli);
    } else {
      equal(p.stdinFile, undefined, `${cli}: stdin stays null`);
      ok(p.argv.includes("Fix the bug"), `${cli}: prompt on argv`);
    }
  }
});

Deno.test("opencode and kilo declare the endpoint with its protocol, the key by name, and no shell", () => {
  const config = JSON.parse(
    file(plan("opencode", { providerType: "anthropic-messages", requestTimeoutSeconds: 7 }), "opencode.json"),
  );
  deepStrictEqual(config.provider.acme, {
    options: {
      baseURL: "http://127.0.0.1:9/v1",
      apiKey: "{env:ACME_KEY}",
      headerTimeout: 7000,
      chunkTimeout: 7000,
    },
    npm: "@ai-sdk/anthropic",
    name: "acme",
    models: { "acme-coder": { name: "acme-coder" } },
  });
  equal(config.model, "acme/acme-coder");
  equal(config.permission.bash, "deny");
  equal(config.permission.edit, "allow");
  equal(config.snapshot, false);
  equal(JSON.parse(file(plan("opencode", {}, "self-review"), "opencode.json")).permission.edit, "deny");
  const kilo = plan("kilo", { maxRetries: 0 });
  equal(kilo.env.KILO_SESSION_RETRY_LIMIT, "0");
  equal(JSON.parse(file(kilo, "kilo.json")).provider.acme.npm, "@ai-sdk/openai-compatible");
  equal(plan("opencode").env.OPENCODE_CONFIG, "/w/run/homes/run-r0-a1/opencode/opencode.json");
});

Deno.test("codex gets a config.toml with a Responses provider and the profile's retry and idle knobs", () => {
  const p = plan("codex", { maxRetries: 0, requestTimeoutSeconds: 12 });
  const toml = file(p, ".codex/config.toml");
  for (
    const line of [
      'model = "acme-coder"',
      'model_provider = "acme"',
      'approval_policy = "never"',
      'sandbox_mode = "workspace-write"',
      '[model_providers."acme"]',
      'base_url = "http://127.0.0.1:9/v1"',
      'env_key = "ACME_KEY"',
      'wire_api = "responses"',
      "request_max_retries = 0",
      "stream_max_retries = 0",
      "stream_idle_timeout_ms = 12000",
    ]
  ) ok(toml.includes(line), `missing ${line}`);
  equal(p.env.CODEX_HOME, "/w/run/homes/run-r0-a1/.codex");
  ok(file(plan("codex", {}, "self-review"), "config.toml").includes('sandbox_mode = "read-only"'));
});

Deno.test("claude, gemini and qwen take the endpoint and knobs from their own variables and settings", () => {
  const claude = plan("claude", {
    baseUrl: "http://127.0.0.1:9/v1",
    maxRetries: 3,
    requestTimeoutSeconds: 20,
  });
  equal(claude.env.ANTHROPIC_BASE_URL, "http://127.0.0.1:9");
  equal(claude.env.ANTHROPIC_API_KEY, SECRET);
  equal(claude.env.CLAUDE_CODE_MAX_RETRIES, "3");
  equal(claude.env.API_TIMEOUT_MS, "20000");
  ok(claude.argv.includes("--disallowedTools"));
  equal(
    plan("claude", {}, "self-review").argv.at(
      plan("claude", {}, "self-review").argv.indexOf("--allowedTools") + 1,
    ),
    "Read,Glob,Grep",
  );

  const gemini = plan("gemini", { baseUrl: "http://127.0.0.1:9", maxRetries: 0 });
  equal(gemini.env.GOOGLE_GEMINI_BASE_URL, "http://127.0.0.1:9");
  equal(gemini.env.GEMINI_API_KEY, SECRET);
  equal(JSON.parse(file(gemini, ".gemini/settings.json")).general.maxAttempts, 1);

  const qwen = plan("qwen", { maxRetries: 0, requestTimeoutSeconds: 30 });
  equal(qwen.env.OPENAI_BASE_URL, "http://127.0.0.1:9/v1");
  equal(qwen.env.OPENAI_API_KEY, SECRET);
  deepStrictEqual(JSON.parse(file(qwen, ".qwen/settings.json")).model.generationConfig, {
    maxRetries: 0,
    timeout: 30000,
  });
});

Deno.test("codex stands its own sandbox down inside spot's OS sandbox, where it would nest and fail", () => {
  const a = getAdapter("codex")!;
  const inside = a.plan({ ...spec("codex"), osSandbox: true });
  ok(file(inside, "config.toml").includes('sandbox_mode = "danger-full-access"'));
  ok(file(plan("codex"), "config.toml").includes('sandbox_mode = "workspace-write"'));
});

/** What a plan says about one tool: given, denied, or not mentioned. */
function webView(cli: string, web: boolean): { given: string[]; denied: string[] } {
  const p = getAdapter(cli)!.plan({ ...spec(cli), web });
  const arg = (flag: string) => (p.argv[p.argv.indexOf(flag) + 1] ?? "").split(",");
  switch (cli) {
    case "claude":
    case "codebuddy":
      return { given: arg("--allowedTools"), denied: arg("--disallowedTools") };
    case "qwen":
      return { given: [], denied: arg("--exclude-tools") };
    case "gemini":
      return { given: [], denied: JSON.parse(file(p, ".gemini/settings.json")).tools.exclude };
    default: {
      const perm = JSON.parse(file(p, cli === "kilo" ? "kilo.json" : "opencode.json")).permission;
      const keys = Object.keys(perm);
      return {
        given: keys.filter((k) => perm[k] === "allow"),
        denied: keys.filter((k) => perm[k] === "deny"),
      };
    }
  }
}

Deno.test("web tools: given only when the launch says web, and the shell stays denied either way", () => {
  const shell: Record<string, string> = {
    claude: "Bash",
    codebuddy: "Bash",
    qwen: "run_shell_command",
    gemini: "run_shell_command",
    opencode: "bash",
    kilo: "bash",
  };
  for (const [cli, sh] of Object.entries(shell)) {
    const tools = getAdapter(cli)!.webTools ?? [];
    ok(tools.length > 0, `${cli} names its web tools`);
    const off = webView(cli, false);
    const on = webView(cli, true);
    for (const t of tools) {
      ok(off.denied.includes(t) && !off.given.includes(t), `${cli}: ${t} denied without web`);
      ok(!on.denied.includes(t), `${cli}: ${t} still denied with web`);
      // Where the CLI needs an allow list (claude's headless permissions), the tool is on it.
      if (on.given.length) ok(on.given.includes(t), `${cli}: ${t} not allowed with web`);
    }
    ok(off.denied.includes(sh) && on.denied.includes(sh), `${cli}: the shell is denied in both`);
  }
});

Deno.test("CLIs without web tools plan the same launch whatever web says", () => {
  for (const cli of ["pi", "codex", "kimi", "qoder", "trae", "zcode", "replay"]) {
    const a = getAdapter(cli)!;
    equal(a.webTools, undefined, cli);
    deepStrictEqual(a.plan({ ...spec(cli), web: true }), a.plan({ ...spec(cli), web: false }), cli);
  }
});
