/**
 * ZCode (`zcode -p <prompt> --json`), Zhipu's workbench CLI: OAuth shared
 * with its desktop app, real token usage in the JSON result, and no model
 * flag (it uses the model picked in its UI). Built from the seed's
 * description of its headless mode; not installable here.
 */
import type { CliRecord } from "./record.ts";
import { dotDir, noSettings, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";
import { homeEnv, promptText, tmpDirFile, withKey } from "../plan_util.ts";
import type { LaunchPlan, LaunchSpec } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () =>
  lazy<typeof import("../streams/json_result.ts")>("../streams/json_result.ts", import.meta.url);

export const zcodeCli: CliRecord = {
  name: "zcode",
  title: "ZCode",
  defaultBinary: "zcode",
  detect: { versionArgs: ["--version"], candidateDirs: [".zcode/bin", ".local/bin"] },
  install: "install the ZCode app from Z.ai and put its zcode command on PATH",
  // its headless mode has no read-only switch
  selfReviewReadOnly: "nobody",
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: noSettings("zcode"),
  network: { takesBaseUrl: false, hosts: ["open.bigmodel.cn:443", "api.z.ai:443"] },
  homeFiles: [dotDir(".zcode", ["config.json"])],
  endpoints: {
    zai: { baseUrl: "https://api.z.ai/api/coding/paas/v4", providerType: "openai-completions" },
  },
  profiles: {
    // ZCode has no --model flag: it runs the model its TUI last persisted.
    zcode: { adapter: "zcode", provider: "zhipu", model: "default" },
  },
  listed: 2,
  plan,
  reader: async () => {
    const { parseJsonResultLine, finishJsonResult } = await stream();
    return { parseLine: parseJsonResultLine, finish: finishJsonResult };
  },
};

function plan(spec: LaunchSpec): LaunchPlan {
  return {
    argv: [spec.binary, "-p", promptText(spec), "--json"],
    env: withKey({ ...homeEnv(spec) }, spec, []),
    files: [tmpDirFile(spec)],
  };
}
