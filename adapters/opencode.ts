/**
 * opencode (`opencode run --format json`). The config goes in a file named by
 * OPENCODE_CONFIG, the prompt on argv (opencode blocks on an open stdin), and
 * `--title` skips the extra title request.
 */
import { join } from "../base/path.ts";
import { OPENCODE_WEB_TOOLS, opencodeConfig } from "./opencode_config.ts";
import { finishOpencode, parseOpencodeLine } from "./streams/opencode.ts";
import { homeEnv, promptText, tmpDirFile, withKey } from "./plan_util.ts";
import type { DetectInfo, LaunchPlan, LaunchSpec, WorkerAdapter } from "./types.ts";

/** A fixed title: opencode would otherwise spend a model call naming the session. */
export const SESSION_TITLE = "spot worker";

/** `opencode models` prints one `provider/model` per line. */
export function parseModelLines(stdout: string): string[] {
  return stdout.split("\n").map((l) => l.trim()).filter((l) => /^[\w.@-]+\/\S+$/.test(l));
}

export const OPENCODE_DETECT: DetectInfo = {
  versionArgs: ["--version"],
  modelListArgs: ["models"],
  parseModelList: parseModelLines,
  candidateDirs: [".opencode/bin", ".local/bin", ".bun/bin"],
  minimumVersion: "1.0.0",
};

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

export const opencodeAdapter: WorkerAdapter = {
  name: "opencode",
  defaultBinary: "opencode",
  // the edit permission is denied in its config
  selfReviewReadOnly: "cli",
  detect: OPENCODE_DETECT,
  webTools: OPENCODE_WEB_TOOLS,
  plan,
  parseLine: parseOpencodeLine,
  finish: finishOpencode,
};
