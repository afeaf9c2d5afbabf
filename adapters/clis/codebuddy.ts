/** Tencent's CodeBuddy Code (`@tencent-ai/codebuddy-code`), a Claude Code fork logged in with OAuth. */
import type { CliRecord } from "./record.ts";
import { dotDir, noSettings, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";

export const codebuddyCli: CliRecord = {
  name: "codebuddy",
  title: "CodeBuddy Code",
  defaultBinary: "codebuddy",
  detect: { versionArgs: ["--version"], candidateDirs: [".npm-global/bin", ".local/bin"] },
  install: "npm install -g @tencent-ai/codebuddy-code",
  // a Claude Code fork: the same permission rule in headless mode
  selfReviewReadOnly: "cli",
  webTools: ["WebFetch", "WebSearch"],
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: noSettings("codebuddy"),
  network: {
    takesBaseUrl: false,
    hosts: ["codebuddy.ai:443", "www.codebuddy.ai:443", "copilot.tencent.com:443"],
  },
  homeFiles: [dotDir(".codebuddy", ["settings.json"])],
  profiles: {
    "codebuddy-cli": { adapter: "codebuddy", provider: "codebuddy", model: "deepseek-v4.1-flash" },
  },
};
