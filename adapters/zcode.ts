/**
 * ZCode (`zcode -p <prompt> --json`), Zhipu's workbench CLI: OAuth shared
 * with its desktop app, real token usage in the JSON result, and no model
 * flag (it uses the model picked in its UI). Built from the seed's
 * description of its headless mode; not installable here.
 */
import { finishJsonResult, parseJsonResultLine } from "./streams/json_result.ts";
import { homeEnv, promptText, tmpDirFile, withKey } from "./plan_util.ts";
import type { LaunchPlan, LaunchSpec, WorkerAdapter } from "./types.ts";
import { zcodeCli } from "./clis/zcode.ts";
import { defineAdapter } from "./clis/record.ts";

function plan(spec: LaunchSpec): LaunchPlan {
  return {
    argv: [spec.binary, "-p", promptText(spec), "--json"],
    env: withKey({ ...homeEnv(spec) }, spec, []),
    files: [tmpDirFile(spec)],
  };
}

export const zcodeAdapter: WorkerAdapter = defineAdapter(zcodeCli, {
  plan,
  parseLine: parseJsonResultLine,
  finish: finishJsonResult,
});
