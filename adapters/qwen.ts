/**
 * qwen-code (`qwen -p … --output-format stream-json`), a Claude-shaped
 * stream whose `input_tokens` include the cached ones, and which reports a
 * provider error as a successful result whose text starts `[API Error:`.
 */
import { join } from "../base/path.ts";
import { finishClaude, parseClaudeLine } from "./streams/claude.ts";
import { homeEnv, promptText, seconds, tmpDirFile, withKey, withV1 } from "./plan_util.ts";
import { configSetting, settingFlags } from "./capabilities/settings.ts";
import type { DetectInfo, LaunchPlan, LaunchSpec, ParseState, WorkerAdapter } from "./types.ts";

const DEFAULT_RETRIES = 1;
const API_ERROR = /^\s*\[API Error:/;
const WEB_TOOLS = ["web_fetch"];

function settings(spec: LaunchSpec): string {
  const timeout = seconds(spec.profile.requestTimeoutSeconds);
  const effort = configSetting("qwen", spec.profile, "reasoningEffort");
  const window = configSetting("qwen", spec.profile, "maxContextSize");
  return JSON.stringify(
    {
      security: { auth: { selectedType: "openai" } },
      model: {
        name: spec.profile.model,
        generationConfig: {
          maxRetries: spec.profile.maxRetries ?? DEFAULT_RETRIES,
          ...(timeout ? { timeout } : {}),
          ...(effort ? { reasoning: { effort } } : {}),
          ...(window ? { contextWindowSize: window } : {}),
        },
      },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    },
    null,
    2,
  );
}

function plan(spec: LaunchSpec): LaunchPlan {
  const { baseUrl, model } = spec.profile;
  const env = withKey(
    {
      ...homeEnv(spec),
      ...(baseUrl ? { OPENAI_BASE_URL: withV1(baseUrl) } : {}),
      OPENAI_MODEL: model,
    },
    spec,
    ["OPENAI_API_KEY"],
  );
  const readOnly = spec.phase === "self-review";
  return {
    argv: [
      spec.binary,
      ...["-p", promptText(spec), "--output-format", "stream-json", "--auth-type", "openai", "-m", model],
      ...["--approval-mode", readOnly ? "default" : "yolo"],
      ...["--exclude-tools", ["run_shell_command", ...(spec.web ? [] : WEB_TOOLS), "agent"].join(",")],
      ...["--chat-recording", "false"],
      ...settingFlags("qwen", spec.profile),
    ],
    env,
    files: [
      { path: join(spec.homeDir, ".qwen", "settings.json"), content: settings(spec) },
      tmpDirFile(spec),
    ],
  };
}

export const QWEN_DETECT: DetectInfo = {
  versionArgs: ["--version"],
  candidateDirs: [".npm-global/bin", ".local/bin"],
  minimumVersion: "0.10.0",
};

export const qwenAdapter: WorkerAdapter = {
  name: "qwen",
  defaultBinary: "qwen",
  // a gemini fork: outside yolo, headless mode drops tools that need approval
  selfReviewReadOnly: "cli",
  detect: QWEN_DETECT,
  webTools: WEB_TOOLS,
  plan,
  parseLine: (line: string, state: ParseState) =>
    parseClaudeLine(line, state, { inputIncludesCache: true, errorText: API_ERROR }),
  finish: finishClaude,
};
