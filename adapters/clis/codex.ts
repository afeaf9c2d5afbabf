/** OpenAI's Codex CLI (`@openai/codex`): `codex exec --json --ephemeral`, its provider in a private config.toml. */
import type { CliRecord } from "./record.ts";
import { underHome, UP_TO_XHIGH } from "./record.ts";

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
};
