/**
 * Kimi Code (`kimi --print --output-format stream-json`). Print mode
 * auto-approves tools and answers its own questions; the prompt comes on
 * stdin; the endpoint is declared in a private `~/.kimi/config.toml` whose key
 * stays empty, because the key travels in KIMI_API_KEY / OPENAI_API_KEY.
 * Built from Kimi's documented print mode; not installable here.
 */
import type { CliRecord } from "./record.ts";
import { dotDir, noRoute, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";
import { join } from "../../base/path.ts";
import { homeEnv, tmpDirFile, withKey } from "../plan_util.ts";
import { configSetting } from "../capabilities/routes.ts";
import type { LaunchPlan, LaunchSpec, ProviderType } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () => lazy<typeof import("../streams/kimi.ts")>("../streams/kimi.ts", import.meta.url);

export const kimiCli: CliRecord = {
  name: "kimi",
  title: "Kimi Code",
  defaultBinary: "kimi",
  detect: { versionArgs: ["--version"], candidateDirs: [".local/bin", ".cargo/bin"] },
  install: "uv tool install --python 3.13 kimi-cli",
  // print mode auto-approves every tool
  selfReviewReadOnly: "nobody",
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: {
    reasoningEffort: noRoute("kimi's config.toml has only an on/off thinking switch"),
    maxContextSize: { via: "config", name: "config.toml max_context_size" },
    maxTurns: { via: "config", name: "config.toml loop_control.max_steps_per_turn" },
  },
  network: { takesBaseUrl: true, hosts: ["api.kimi.com:443", "api.moonshot.cn:443"] },
  homeFiles: [dotDir(".kimi", ["config.toml"])],
  endpoints: {
    "kimi-coding": { baseUrl: "https://api.kimi.com/coding", providerType: "anthropic-messages" },
    kimi: { baseUrl: "https://api.kimi.com/coding/v1", providerType: "openai-completions" },
    moonshot: { baseUrl: "https://api.moonshot.cn/v1", providerType: "openai-completions" },
  },
  profiles: {
    "kimi-cli": {
      adapter: "kimi",
      provider: "kimi",
      model: "kimi-for-coding",
      apiKeyEnv: "KIMI_API_KEY",
      baseUrl: "https://api.kimi.com/coding/v1",
      maxContextSize: 1_048_576,
      costTier: "standard",
    },
  },
  listed: 3,
  plan,
  reader: async () => {
    const { parseKimiLine, finishKimi } = await stream();
    return { parseLine: parseKimiLine, finish: finishKimi };
  },
};

/** Kimi's provider types for each wire protocol; the Kimi API itself is OpenAI-shaped. */
const KIMI_TYPE: Record<ProviderType, string> = {
  "openai-completions": "openai_legacy",
  "openai-responses": "openai_responses",
  "anthropic-messages": "anthropic",
  "google-gemini": "gemini",
};
/** Kimi K2's window, the model entry's required size when the profile sets no maxContextSize. */
const DEFAULT_CONTEXT = 262_144;
const q = (value: string) => JSON.stringify(value);

function config(spec: LaunchSpec): string {
  const { provider, model, baseUrl, providerType } = spec.profile;
  const context = configSetting(kimiCli.settings, spec.profile, "maxContextSize") ?? DEFAULT_CONTEXT;
  const steps = configSetting(kimiCli.settings, spec.profile, "maxTurns");
  const type = provider.startsWith("kimi") || provider === "moonshot"
    ? "kimi"
    : KIMI_TYPE[providerType ?? "openai-completions"];
  return [
    `default_model = ${q(model)}`,
    "",
    `[models.${q(model)}]`,
    `provider = ${q(provider)}`,
    `model = ${q(model)}`,
    `max_context_size = ${context}`,
    "",
    `[providers.${q(provider)}]`,
    `type = ${q(type)}`,
    ...(baseUrl ? [`base_url = ${q(baseUrl)}`] : []),
    `api_key = ""`,
    ...(steps !== undefined ? ["", "[loop_control]", `max_steps_per_turn = ${steps}`] : []),
  ].join("\n") + "\n";
}

function plan(spec: LaunchSpec): LaunchPlan {
  const env = withKey({ ...homeEnv(spec) }, spec, ["KIMI_API_KEY", "OPENAI_API_KEY"]);
  return {
    argv: [
      spec.binary,
      ...["--print", "--output-format", "stream-json"],
      ...["--work-dir", spec.worktree, "--model", spec.profile.model],
    ],
    env,
    files: [{ path: join(spec.homeDir, ".kimi", "config.toml"), content: config(spec) }, tmpDirFile(spec)],
    stdinFile: spec.promptFile,
  };
}
