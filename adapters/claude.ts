/**
 * Claude Code (`claude -p --output-format stream-json --verbose`). Endpoint
 * and knobs travel by env (ANTHROPIC_BASE_URL, CLAUDE_CODE_MAX_RETRIES,
 * API_TIMEOUT_MS); tools are an allow list; the prompt comes on stdin.
 */
import { finishClaude, parseClaudeLine } from "./streams/claude.ts";
import { homeEnv, seconds, tmpDirFile, withKey, withoutV1 } from "./plan_util.ts";
import { settingEnv, settingFlags } from "./capabilities/settings.ts";
import type { LaunchPlan, LaunchSpec, ParseState, WorkerAdapter } from "./types.ts";
import { claudeCli } from "./clis/claude.ts";
import { defineAdapter } from "./clis/record.ts";

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
      ...settingEnv("claude", spec.profile),
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
      ...settingFlags("claude", spec.profile),
    ],
    env,
    files: [tmpDirFile(spec)],
    stdinFile: spec.promptFile,
  };
}

export const claudeAdapter: WorkerAdapter = defineAdapter(claudeCli, {
  plan,
  parseLine: (line: string, state: ParseState) => parseClaudeLine(line, state, { inputIncludesCache: false }),
  finish: finishClaude,
});
