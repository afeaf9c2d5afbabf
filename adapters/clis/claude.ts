/** Anthropic's Claude Code (`@anthropic-ai/claude-code`): `claude -p --output-format stream-json`. */
import type { CliRecord } from "./record.ts";
import { underHome } from "./record.ts";

/** claude's --effort levels: no "minimal". */
const LOW_TO_MAX = ["low", "medium", "high", "xhigh", "max"] as const;

export const claudeCli: CliRecord = {
  name: "claude",
  title: "Claude Code",
  defaultBinary: "claude",
  detect: {
    versionArgs: ["--version"],
    candidateDirs: [".claude/local", ".local/bin"],
    minimumVersion: "2.0.0",
  },
  install: "npm install -g @anthropic-ai/claude-code",
  // headless, tools outside --allowedTools need a permission nobody can give
  selfReviewReadOnly: "cli",
  webTools: ["WebFetch", "WebSearch"],
  sessions: { resumes: false, why: "runs with --no-session-persistence, so no session outlives its turn" },
  settings: {
    reasoningEffort: { via: "flag", name: "--effort", values: LOW_TO_MAX },
    maxContextSize: { via: "env", name: "CLAUDE_CODE_AUTO_COMPACT_WINDOW" },
    maxTurns: { via: "flag", name: "--max-turns" },
  },
  network: {
    takesBaseUrl: true,
    hosts: ["api.anthropic.com:443", "console.anthropic.com:443", "statsig.anthropic.com:443"],
  },
  homeFiles: [
    {
      dir: (e) => e("CLAUDE_CONFIG_DIR") || underHome(e, ".claude"),
      to: ".claude",
      config: ["settings.json"],
      login: [".credentials.json"],
    },
    { dir: (e) => underHome(e), to: ".", config: [], login: [".claude.json"] },
  ],
  endpoints: { anthropic: { baseUrl: "https://api.anthropic.com", providerType: "anthropic-messages" } },
  profiles: {
    claude: {
      adapter: "claude",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      apiKeyEnv: "ANTHROPIC_API_KEY",
    },
  },
};
