/** Moonshot's Kimi Code CLI (`kimi --print --output-format stream-json`), configured by a private config.toml. */
import type { CliRecord } from "./record.ts";
import { dotDir, noRoute, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";

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
};
