/**
 * codex (`codex exec --json`). Everything lives in a private CODEX_HOME
 * config.toml; codex speaks only the Responses API, reads the prompt from
 * stdin to EOF, and gets its request and stream retry budgets from the profile.
 */
import type { CliRecord } from "./record.ts";
import { underHome, UP_TO_XHIGH } from "./record.ts";
import { join } from "../../base/path.ts";
import { homeEnv, seconds, tmpDirFile, withKey, withV1 } from "../plan_util.ts";
import { configSetting } from "../capabilities/routes.ts";
import type { LaunchPlan, LaunchSpec } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () => lazy<typeof import("../streams/codex.ts")>("../streams/codex.ts", import.meta.url);

export const codexCli: CliRecord = {
  name: "codex",
  title: "Codex",
  defaultBinary: "codex",
  detect: {
    versionArgs: ["--version"],
    candidateDirs: [".local/bin", ".npm-global/bin"],
    minimumVersion: "0.100.0",
  },
  install: "npm install -g @openai/codex",
  // --sandbox read-only is codex's own OS sandbox
  selfReviewReadOnly: "cli",
  sessions: { resumes: false, why: "runs `codex exec --ephemeral`, so no session outlives its turn" },
  settings: {
    reasoningEffort: { via: "config", name: "config.toml model_reasoning_effort", values: UP_TO_XHIGH },
    maxContextSize: { via: "config", name: "config.toml model_context_window" },
    maxTurns: { via: "none", why: "codex exec has no turn limit" },
  },
  network: {
    takesBaseUrl: true,
    hosts: ["chatgpt.com:443", "auth.openai.com:443", "api.openai.com:443"],
  },
  homeFiles: [{
    dir: (e) => e("CODEX_HOME") || underHome(e, ".codex"),
    to: ".codex",
    config: ["config.toml"],
    login: ["auth.json"],
  }],
  endpoints: { openai: { baseUrl: "https://api.openai.com/v1", providerType: "openai-responses" } },
  profiles: {
    codex: { adapter: "codex", provider: "openai", model: "gpt-5-codex", apiKeyEnv: "OPENAI_API_KEY" },
  },
  listed: 8,
  plan,
  reader: async () => {
    const { parseCodexLine, finishCodex } = await stream();
    return { parseLine: parseCodexLine, finish: finishCodex };
  },
};

/** codex's own defaults are 4 request and 5 stream retries; spot retries transient failures itself too. */
const DEFAULT_RETRIES = 2;
const EFFORTS = new Set(["minimal", "low", "medium", "high", "xhigh"]);

/**
 * codex's own sandbox confines its commands to the worktree; inside spot's OS sandbox it would nest
 * and every write would fail, so there spot's sandbox is the only one.
 */
function sandboxMode(spec: LaunchSpec): string {
  if (spec.osSandbox) return "danger-full-access";
  return spec.phase === "self-review" ? "read-only" : "workspace-write";
}

/** TOML basic strings take JSON's escapes. */
const q = (value: string) => JSON.stringify(value);

export function codexConfig(spec: LaunchSpec): string {
  const { provider, model, apiKeyEnv, baseUrl, thinking } = spec.profile;
  const retries = spec.profile.maxRetries ?? DEFAULT_RETRIES;
  const idle = seconds(spec.profile.requestTimeoutSeconds);
  const effort = configSetting(codexCli.settings, spec.profile, "reasoningEffort") ??
    (thinking && EFFORTS.has(thinking) ? thinking : undefined);
  const window = configSetting(codexCli.settings, spec.profile, "maxContextSize");
  const lines = [
    `model = ${q(model)}`,
    `model_provider = ${q(baseUrl ? provider : "openai")}`,
    `approval_policy = "never"`,
    `sandbox_mode = ${q(sandboxMode(spec))}`,
    `check_for_update_on_startup = false`,
    ...(effort ? [`model_reasoning_effort = ${q(effort)}`] : []),
    ...(window ? [`model_context_window = ${window}`] : []),
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[feedback]",
    "enabled = false",
    "",
    "[history]",
    `persistence = "none"`,
  ];
  if (baseUrl) {
    lines.push(
      "",
      `[model_providers.${q(provider)}]`,
      `name = ${q(provider)}`,
      `base_url = ${q(withV1(baseUrl))}`,
      ...(apiKeyEnv ? [`env_key = ${q(apiKeyEnv)}`] : []),
      `wire_api = "responses"`,
      `request_max_retries = ${retries}`,
      `stream_max_retries = ${retries}`,
      ...(idle ? [`stream_idle_timeout_ms = ${idle}`] : []),
    );
  }
  return lines.join("\n") + "\n";
}

function plan(spec: LaunchSpec): LaunchPlan {
  const codexHome = join(spec.homeDir, ".codex");
  const env = withKey(
    { ...homeEnv(spec), CODEX_HOME: codexHome },
    spec,
    spec.profile.baseUrl ? [] : ["OPENAI_API_KEY"],
  );
  return {
    argv: [
      spec.binary,
      ...["exec", "--json", "--skip-git-repo-check", "--ephemeral"],
      ...["-C", spec.worktree, "-m", spec.profile.model],
    ],
    env,
    files: [{ path: join(codexHome, "config.toml"), content: codexConfig(spec) }, tmpDirFile(spec)],
    stdinFile: spec.promptFile,
  };
}
