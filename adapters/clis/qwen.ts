/** Qwen Code (`@qwen-code/qwen-code`), a gemini-cli fork that speaks Claude Code's stream-json. */
import type { CliRecord } from "./record.ts";
import { dotDir, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";

export const qwenCli: CliRecord = {
  name: "qwen",
  title: "Qwen Code",
  defaultBinary: "qwen",
  detect: {
    versionArgs: ["--version"],
    candidateDirs: [".npm-global/bin", ".local/bin"],
    minimumVersion: "0.10.0",
  },
  install: "npm install -g @qwen-code/qwen-code",
  // a gemini fork: outside yolo, headless mode drops tools that need approval
  selfReviewReadOnly: "cli",
  webTools: ["web_fetch"],
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: {
    reasoningEffort: { via: "config", name: "settings.json model.generationConfig.reasoning.effort" },
    maxContextSize: { via: "config", name: "settings.json model.generationConfig.contextWindowSize" },
    maxTurns: { via: "flag", name: "--max-session-turns" },
  },
  network: { takesBaseUrl: true, hosts: ["chat.qwen.ai:443", "dashscope.aliyuncs.com:443"] },
  homeFiles: [dotDir(".qwen", ["settings.json"], ["oauth_creds.json"])],
  endpoints: {
    dashscope: {
      baseUrl: "https://dashscope.aliyuncs.com/compatible-mode/v1",
      providerType: "openai-completions",
    },
  },
  profiles: {
    qwen: {
      adapter: "qwen",
      provider: "dashscope",
      model: "qwen3-coder-plus",
      apiKeyEnv: "DASHSCOPE_API_KEY",
      baseUrl: "https://dashscope.aliyuncs.com/compatible-mode/v1",
    },
  },
};
