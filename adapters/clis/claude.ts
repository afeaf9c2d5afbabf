/**
 * Claude Code (`claude -p --output-format stream-json --verbose`). Endpoint
 * and knobs travel by env (ANTHROPIC_BASE_URL, CLAUDE_CODE_MAX_RETRIES,
 * API_TIMEOUT_MS); tools are an allow list; the prompt comes on stdin.
 */
import type { CliRecord } from "./record.ts";
import type { StreamReader } from "./record.ts";
import { underHome } from "./record.ts";
import { homeEnv, seconds, tmpDirFile, withKey, withoutV1 } from "../plan_util.ts";
import { settingEnv, settingFlags } from "../capabilities/routes.ts";
import type { LaunchPlan, LaunchSpec, ParseState } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () => lazy<typeof import("../streams/claude.ts")>("../streams/claude.ts", import.meta.url);

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
  listed: 9,
  plan,
  reader: async (): Promise<StreamReader> => {
    const { parseClaudeLine, finishClaude } = await stream();
    return {
      parseLine: (line: string, state: ParseState) =>
        parseClaudeLine(line, state, { inputIncludesCache: false }),
      finish: finishClaude,
    };
  },
};

/** Claude retries 10 times over about 3 minutes by default; spot retries transient failures itself. */
const DEFAULT_RETRIES = 2;
const EDIT_TOOLS = "Read,Glob,Grep,Edit,MultiEdit,Write";
const READ_TOOLS = "Read,Glob,Grep";
const WEB_TOOLS = claudeCli.webTools ?? [];
/** Commands run only in spot's verify steps; sub-agents stay out of a bounded task, and the web out of all but research. */
const DENIED_TOOLS = "Bash,Task,Agent";

/** Headless, a tool outside --allowedTools waits for a permission nobody gives: the web tools are listed or denied. */
function tools(spec: LaunchSpec): { allowed: string; denied: string } {
  const base = spec.phase === "self-review" ? READ_TOOLS : EDIT_TOOLS;
  return spec.web
    ? { allowed: [base, ...WEB_TOOLS].join(","), denied: DENIED_TOOLS }
    : { allowed: base, denied: [DENIED_TOOLS, ...WEB_TOOLS].join(",") };
}

function plan(spec: LaunchSpec): LaunchPlan {
  const { baseUrl, model } = spec.profile;
  const timeout = seconds(spec.profile.requestTimeoutSeconds);
  const env = withKey(
    {
      ...homeEnv(spec),
      ...(baseUrl ? { ANTHROPIC_BASE_URL: withoutV1(baseUrl) } : {}),
      CLAUDE_CODE_MAX_RETRIES: String(spec.profile.maxRetries ?? DEFAULT_RETRIES),
      ...(timeout ? { API_TIMEOUT_MS: String(timeout) } : {}),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      ...settingEnv(claudeCli.settings, spec.profile),
    },
    spec,
    ["ANTHROPIC_API_KEY"],
  );
  const readOnly = spec.phase === "self-review";
  return {
    argv: [
      spec.binary,
      ...["-p", "--output-format", "stream-json", "--verbose", "--model", model],
      ...["--permission-mode", readOnly ? "default" : "acceptEdits"],
      ...["--allowedTools", tools(spec).allowed, "--disallowedTools", tools(spec).denied],
      "--no-session-persistence",
      ...settingFlags(claudeCli.settings, spec.profile),
    ],
    env,
    files: [tmpDirFile(spec)],
    stdinFile: spec.promptFile,
  };
}
