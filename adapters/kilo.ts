/**
 * kilo (`kilo run --format json`), an opencode fork: the same stream and
 * config schema, its own env names, and a session retry limit opencode lacks.
 */
import { join } from "../base/path.ts";
import { finishOpencode, parseOpencodeLine } from "./streams/opencode.ts";
import { opencodeFamilyPlan } from "./opencode.ts";
import { homeEnv, withKey } from "./plan_util.ts";
import type { LaunchPlan, LaunchSpec, WorkerAdapter } from "./types.ts";
import { kiloCli } from "./clis/kilo.ts";
import { defineAdapter } from "./clis/record.ts";

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

export const kiloAdapter: WorkerAdapter = defineAdapter(kiloCli, {
  plan,
  parseLine: parseOpencodeLine,
  finish: finishOpencode,
});
