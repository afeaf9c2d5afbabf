/** Kilo Code's CLI (`@kilocode/cli`), an opencode fork: the same plan, stream and settings as opencode. */
import type { CliRecord } from "./record.ts";
import { SESSIONS_IN_PRIVATE_HOME } from "./record.ts";
import { OPENCODE_FAMILY_SETTINGS, OPENCODE_WEB_TOOLS, parseModelLines, xdgHomeFiles } from "./opencode.ts";

export const kiloCli: CliRecord = {
  name: "kilo",
  title: "Kilo Code",
  defaultBinary: "kilo",
  detect: {
    versionArgs: ["--version"],
    modelListArgs: ["models"],
    parseModelList: parseModelLines,
    candidateDirs: [".kilo/bin", ".local/bin", ".npm-global/bin"],
    minimumVersion: "7.0.0",
  },
  install: "npm install -g @kilocode/cli",
  // an opencode fork: the edit permission is denied in its config
  selfReviewReadOnly: "cli",
  webTools: OPENCODE_WEB_TOOLS,
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: OPENCODE_FAMILY_SETTINGS,
  network: { takesBaseUrl: true, hosts: ["api.kilo.ai:443", "kilocode.ai:443", "models.dev:443"] },
  homeFiles: xdgHomeFiles("kilo", ["kilo.json", "opencode.json"]),
  profiles: { kilo: { adapter: "kilo", provider: "kilo", model: "auto" } },
};
