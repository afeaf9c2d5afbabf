/**
 * qwen-code (`qwen -p … --output-format stream-json`), a Claude-shaped
 * stream whose `input_tokens` include the cached ones, and which reports a
 * provider error as a successful result whose text starts `[API Error:`.
 */
import { join } from "../base/path.ts";
import { finishClaude, parseClaudeLine } from "./streams/claude.ts";
import { homeEnv, promptText, seconds, tmpDirFile, withKey, withV1 } from "./plan_util.ts";
import { configSetting, settingFlags } from "./capabilities/settings.ts";
import type { LaunchPlan, LaunchSpec, ParseState, WorkerAdapter } from "./types.ts";
import { qwenCli } from "./clis/qwen.ts";
import { defineAdapter } from "./clis/record.ts";

const DEFAULT_RETRIES = 1;
const API_ERROR = /^\s*\[API Error:/;
const WEB_TOOLS = qwenCli.webTools ?? [];

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

export const qwenAdapter: WorkerAdapter = defineAdapter(qwenCli, {
  plan,
  parseLine: (line: string, state: ParseState) =>
    parseClaudeLine(line, state, { inputIncludesCache: true, errorText: API_ERROR }),
  finish: finishClaude,
});
