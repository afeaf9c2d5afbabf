/**
 * gemini-cli (`gemini -p … --output-format stream-json`). It speaks only the
 * Gemini API: GOOGLE_GEMINI_BASE_URL points it at a gateway, the key travels
 * in GEMINI_API_KEY, and settings.json turns off telemetry, updates and the
 * folder-trust prompt and caps its retries (10 attempts by default).
 */
import type { CliRecord } from "./record.ts";
import { dotDir, noRoute, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";
import { join } from "../../base/path.ts";
import { homeEnv, promptText, tmpDirFile, withKey, withoutV1 } from "../plan_util.ts";
import { configSetting } from "../capabilities/routes.ts";
import type { LaunchPlan, LaunchSpec } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () => lazy<typeof import("../streams/gemini.ts")>("../streams/gemini.ts", import.meta.url);

export const geminiCli: CliRecord = {
  name: "gemini",
  title: "Gemini CLI",
  defaultBinary: "gemini",
  detect: {
    versionArgs: ["--version"],
    candidateDirs: [".npm-global/bin", ".local/bin"],
    minimumVersion: "0.50.0",
  },
  install: "npm install -g @google/gemini-cli",
  // outside yolo, headless gemini leaves out every tool that needs approval
  selfReviewReadOnly: "cli",
  webTools: ["web_fetch", "google_web_search"],
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: {
    reasoningEffort: noRoute(
      "gemini-cli takes thinking settings only through model-config aliases spot does not write",
    ),
    maxContextSize: noRoute("gemini-cli has no context-window setting"),
    maxTurns: { via: "config", name: "settings.json model.maxSessionTurns" },
  },
  network: {
    takesBaseUrl: true,
    hosts: [
      "generativelanguage.googleapis.com:443",
      "cloudcode-pa.googleapis.com:443",
      "oauth2.googleapis.com:443",
    ],
  },
  homeFiles: [dotDir(".gemini", ["settings.json"], ["oauth_creds.json", "google_accounts.json"])],
  endpoints: {
    google: { baseUrl: "https://generativelanguage.googleapis.com/v1beta", providerType: "google-gemini" },
  },
  profiles: {
    gemini: { adapter: "gemini", provider: "google", model: "gemini-2.5-pro", apiKeyEnv: "GEMINI_API_KEY" },
  },
  listed: 10,
  plan,
  reader: async () => {
    const { parseGeminiLine, finishGemini } = await stream();
    return { parseLine: parseGeminiLine, finish: finishGemini };
  },
};

/** gemini retries a rate limit with growing gaps for minutes; spot retries transient failures itself. */
const DEFAULT_RETRIES = 2;
/** gemini-cli refuses more attempts than this. */
const MAX_ATTEMPTS = 10;
const WEB_TOOLS = geminiCli.webTools ?? [];

function settings(spec: LaunchSpec): string {
  const attempts = Math.min(MAX_ATTEMPTS, (spec.profile.maxRetries ?? DEFAULT_RETRIES) + 1);
  const turns = configSetting(geminiCli.settings, spec.profile, "maxTurns");
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
