/**
 * kilo (`kilo run --format json`), an opencode fork: the same stream and
 * config schema, its own env names, and a session retry limit opencode lacks.
 */
import type { CliRecord } from "./record.ts";
import { SESSIONS_IN_PRIVATE_HOME } from "./record.ts";
import { OPENCODE_FAMILY_SETTINGS, OPENCODE_WEB_TOOLS, parseModelLines, xdgHomeFiles } from "./opencode.ts";
import { join } from "../../base/path.ts";
import { opencodeFamilyPlan } from "./opencode.ts";
import { homeEnv, withKey } from "../plan_util.ts";
import type { LaunchPlan, LaunchSpec } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () => lazy<typeof import("../streams/opencode.ts")>("../streams/opencode.ts", import.meta.url);

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
  listed: 12,
  plan,
  reader: async () => {
    const { parseOpencodeLine, finishOpencode } = await stream();
    return { parseLine: parseOpencodeLine, finish: finishOpencode };
  },
};

const DEFAULT_RETRIES = 2;

function plan(spec: LaunchSpec): LaunchPlan {
  const configFile = join(spec.homeDir, "kilo", "kilo.json");
  const env = withKey(
    {
      ...homeEnv(spec),
      KILO_CONFIG: configFile,
      KILO_DISABLE_AUTOUPDATE: "1",
      KILO_DISABLE_MODELS_FETCH: "1",
      KILO_DISABLE_SHARE: "1",
      KILO_DISABLE_LSP_DOWNLOAD: "1",
      KILO_TELEMETRY_LEVEL: "off",
      KILO_SESSION_RETRY_LIMIT: String(spec.profile.maxRetries ?? DEFAULT_RETRIES),
    },
    spec,
    [],
  );
  return opencodeFamilyPlan(spec, env, configFile, "https://app.kilo.ai/config.json");
}
