/**
 * Qoder CLI (`qodercli -p --output-format stream-json`; the CN build installs as `qoderclicn`). It runs only
 * Qoder's own models through Qoder's service, bills in credits, and prices its models in a catalog spot reads
 * (registry/qoder_catalog.ts) to resolve the price aliases (`free`, `cheapest`).
 */
import type { CliRecord } from "./record.ts";
import { dotDir, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";

export const qoderCli: CliRecord = {
  name: "qoder",
  title: "Qoder CLI",
  defaultBinary: "qodercli",
  detect: {
    versionArgs: ["--version"],
    // The international build from npm is qodercli; the CN build installs as qoderclicn.
    alsoNamed: ["qoderclicn"],
    candidateDirs: [".qoder/bin", ".local/bin"],
  },
  install: "npm install -g @qoder-ai/qodercli (the CN build: curl -fsSL https://qoder.com.cn/install | bash)",
  // --allowed-tools only pre-approves; its init event still lists Bash under bypassPermissions
  selfReviewReadOnly: "nobody",
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: {
    reasoningEffort: { via: "flag", name: "--reasoning-effort" },
    maxContextSize: { via: "flag", name: "--context-window" },
    maxTurns: { via: "flag", name: "--max-turns" },
  },
  network: { takesBaseUrl: false, hosts: ["qoder.com:443", "api.qoder.com:443", "openapi.qoder.sh:443"] },
  homeFiles: [dotDir(".qoder", ["settings.json"])],
  profiles: {
    // "free" is a price alias: it becomes the cheapest model the account can reach when the run is prepared.
    "qoder-cli": {
      adapter: "qoder",
      provider: "qoder",
      model: "free",
      apiKeyEnv: "QODERCN_PERSONAL_ACCESS_TOKEN",
      costTier: "free",
    },
  },
};
