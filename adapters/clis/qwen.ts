/**
 * qwen-code (`qwen -p … --output-format stream-json`), a Claude-shaped
 * stream whose `input_tokens` include the cached ones, and which reports a
 * provider error as a successful result whose text starts `[API Error:`.
 */
import type { CliRecord } from "./record.ts";
import type { StreamReader } from "./record.ts";
import { dotDir, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";
import { join } from "../../base/path.ts";
import { homeEnv, promptText, seconds, tmpDirFile, withKey, withV1 } from "../plan_util.ts";
import { configSetting, settingFlags } from "../capabilities/routes.ts";
import type { LaunchPlan, LaunchSpec, ParseState } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () => lazy<typeof import("../streams/claude.ts")>("../streams/claude.ts", import.meta.url);

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
  listed: 11,
  plan,
  reader: async (): Promise<StreamReader> => {
    const { parseClaudeLine, finishClaude } = await stream();
    return {
      parseLine: (line: string, state: ParseState) =>
        parseClaudeLine(line, state, { inputIncludesCache: true, errorText: API_ERROR }),
      finish: finishClaude,
    };
  },
};

const DEFAULT_RETRIES = 1;
const API_ERROR = /^\s*\[API Error:/;
const WEB_TOOLS = qwenCli.webTools ?? [];

function settings(spec: LaunchSpec): string {
  const timeout = seconds(spec.profile.requestTimeoutSeconds);
  const effort = configSetting(qwenCli.settings, spec.profile, "reasoningEffort");
  const window = configSetting(qwenCli.settings, spec.profile, "maxContextSize");
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
      ...settingFlags(qwenCli.settings, spec.profile),
    ],
    env,
    files: [
      { path: join(spec.homeDir, ".qwen", "settings.json"), content: settings(spec) },
      tmpDirFile(spec),
    ],
  };
}
