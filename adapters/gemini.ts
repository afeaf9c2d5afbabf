/**
 * gemini-cli (`gemini -p … --output-format stream-json`). It speaks only the
 * Gemini API: GOOGLE_GEMINI_BASE_URL points it at a gateway, the key travels
 * in GEMINI_API_KEY, and settings.json turns off telemetry, updates and the
 * folder-trust prompt and caps its retries (10 attempts by default).
 */
import { join } from "../base/path.ts";
import { finishGemini, parseGeminiLine } from "./streams/gemini.ts";
import { homeEnv, promptText, tmpDirFile, withKey, withoutV1 } from "./plan_util.ts";
import { configSetting } from "./capabilities/settings.ts";
import type { LaunchPlan, LaunchSpec, WorkerAdapter } from "./types.ts";
import { geminiCli } from "./clis/gemini.ts";
import { defineAdapter } from "./clis/record.ts";

/** gemini retries a rate limit with growing gaps for minutes; spot retries transient failures itself. */
const DEFAULT_RETRIES = 2;
/** gemini-cli refuses more attempts than this. */
const MAX_ATTEMPTS = 10;
const WEB_TOOLS = geminiCli.webTools ?? [];

function settings(spec: LaunchSpec): string {
  const attempts = Math.min(MAX_ATTEMPTS, (spec.profile.maxRetries ?? DEFAULT_RETRIES) + 1);
  const turns = configSetting("gemini", spec.profile, "maxTurns");
  return JSON.stringify(
    {
      ...(turns !== undefined ? { model: { maxSessionTurns: turns } } : {}),
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: attempts },
      security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
      tools: { exclude: ["run_shell_command", ...(spec.web ? [] : WEB_TOOLS)] },
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
      ...(baseUrl ? { GOOGLE_GEMINI_BASE_URL: withoutV1(baseUrl) } : {}),
    },
    spec,
    ["GEMINI_API_KEY"],
  );
  const readOnly = spec.phase === "self-review";
  return {
    argv: [
      spec.binary,
      ...["-p", promptText(spec), "--output-format", "stream-json", "-m", model],
      // Outside yolo, headless gemini leaves out every tool that would need approval: read-only.
      ...["--approval-mode", readOnly ? "default" : "yolo", "--skip-trust"],
    ],
    env,
    files: [
      { path: join(spec.homeDir, ".gemini", "settings.json"), content: settings(spec) },
      tmpDirFile(spec),
    ],
  };
}

export const geminiAdapter: WorkerAdapter = defineAdapter(geminiCli, {
  plan,
  parseLine: parseGeminiLine,
  finish: finishGemini,
});
