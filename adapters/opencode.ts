/**
 * opencode (`opencode run --format json`). The config goes in a file named by
 * OPENCODE_CONFIG, the prompt on argv (opencode blocks on an open stdin), and
 * `--title` skips the extra title request.
 */
import { join } from "../base/path.ts";
import { opencodeConfig } from "./opencode_config.ts";
import { finishOpencode, parseOpencodeLine } from "./streams/opencode.ts";
import { homeEnv, promptText, tmpDirFile, withKey } from "./plan_util.ts";
import type { LaunchPlan, LaunchSpec, WorkerAdapter } from "./types.ts";
import { opencodeCli } from "./clis/opencode.ts";
import { defineAdapter } from "./clis/record.ts";

/** A fixed title: opencode would otherwise spend a model call naming the session. */
export const SESSION_TITLE = "spot worker";

function plan(spec: LaunchSpec): LaunchPlan {
  const configFile = join(spec.homeDir, "opencode", "opencode.json");
  const env = withKey(
    {
      ...homeEnv(spec),
      OPENCODE_CONFIG: configFile,
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_CLAUDE_CODE: "1",
    },
    spec,
    [],
  );
  return opencodeFamilyPlan(spec, env, configFile, "https://opencode.ai/config.json");
}

/** The launch opencode and its forks share: run in JSON mode on the worktree, config written to `configFile`. */
export function opencodeFamilyPlan(
  spec: LaunchSpec,
  env: Record<string, string>,
  configFile: string,
  schemaUrl: string,
): LaunchPlan {
  const { provider, model } = spec.profile;
  return {
    argv: [
      spec.binary,
      ...["run", "--format", "json", "--title", SESSION_TITLE],
      ...["-m", `${provider}/${model}`, "--dir", spec.worktree],
      promptText(spec),
    ],
    env,
    files: [
      { path: configFile, content: JSON.stringify(opencodeConfig(spec, schemaUrl), null, 2) },
      tmpDirFile(spec),
    ],
  };
}

export const opencodeAdapter: WorkerAdapter = defineAdapter(opencodeCli, {
  plan,
  parseLine: parseOpencodeLine,
  finish: finishOpencode,
});
