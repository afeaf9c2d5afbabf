/** Google's Gemini CLI (`@google/gemini-cli`): `gemini -p --output-format stream-json`. */
import type { CliRecord } from "./record.ts";
import { dotDir, noRoute, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";

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
};
