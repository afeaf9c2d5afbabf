/**
 * ZCode (`zcode -p <prompt> --json`), Zhipu's workbench CLI: OAuth shared
 * with its desktop app, real token usage in the JSON result, and no model
 * flag (it uses the model picked in its UI). Built from the seed's
 * description of its headless mode; not installable here.
 */
import { finishJsonResult, parseJsonResultLine } from "./streams/json_result.ts";
import { homeEnv, promptText, tmpDirFile, withKey } from "./plan_util.ts";
import type { DetectInfo, LaunchPlan, LaunchSpec, WorkerAdapter } from "./types.ts";

function plan(spec: LaunchSpec): LaunchPlan {
  return {
    argv: [spec.binary, "-p", promptText(spec), "--json"],
    env: withKey({ ...homeEnv(spec) }, spec, []),
    files: [tmpDirFile(spec)],
  };
}

export const ZCODE_DETECT: DetectInfo = {
  versionArgs: ["--version"],
  candidateDirs: [".zcode/bin", ".local/bin"],
};

export const zcodeAdapter: WorkerAdapter = {
  name: "zcode",
  defaultBinary: "zcode",
  // its headless mode has no read-only switch
  selfReviewReadOnly: "nobody",
  detect: ZCODE_DETECT,
  plan,
  parseLine: parseJsonResultLine,
  finish: finishJsonResult,
};
