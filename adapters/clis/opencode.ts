/**
 * opencode (`opencode run --format json`). The config goes in a file named by
 * OPENCODE_CONFIG, the prompt on argv (opencode blocks on an open stdin), and
 * `--title` skips the extra title request.
 */
import type { CliRecord, HomeFiles } from "./record.ts";
import { SESSIONS_IN_PRIVATE_HOME, xdgDir } from "./record.ts";
import { join } from "../../base/path.ts";
import { OPENCODE_FAMILY_SETTINGS, opencodeConfig } from "../opencode_config.ts";

export { OPENCODE_FAMILY_SETTINGS };
import { homeEnv, promptText, tmpDirFile, withKey } from "../plan_util.ts";
import type { LaunchPlan, LaunchSpec } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () => lazy<typeof import("../streams/opencode.ts")>("../streams/opencode.ts", import.meta.url);

/** `opencode models` prints one `provider/model` per line. */
export function parseModelLines(stdout: string): string[] {
  return stdout.split("\n").map((l) => l.trim()).filter((l) => /^[\w.@-]+\/\S+$/.test(l));
}

/** The web tools opencode and kilo share, named as their permission keys. */
export const OPENCODE_WEB_TOOLS: readonly string[] = ["webfetch", "websearch"];

/** An opencode-family CLI keeps its config under XDG_CONFIG_HOME and its logins under XDG_DATA_HOME. */
export function xdgHomeFiles(cli: string, config: readonly string[]): HomeFiles[] {
  return [
    {
      dir: (e) => xdgDir(e, "XDG_CONFIG_HOME", [".config"], cli),
      to: `.config/${cli}`,
      config,
      login: [],
    },
    {
      dir: (e) => xdgDir(e, "XDG_DATA_HOME", [".local", "share"], cli),
      to: `.local/share/${cli}`,
      config: [],
      login: ["auth.json"],
    },
  ];
}

export const opencodeCli: CliRecord = {
  name: "opencode",
  title: "OpenCode",
  defaultBinary: "opencode",
  detect: {
    versionArgs: ["--version"],
    modelListArgs: ["models"],
    parseModelList: parseModelLines,
    candidateDirs: [".opencode/bin", ".local/bin", ".bun/bin"],
    minimumVersion: "1.0.0",
  },
  install: "npm install -g opencode-ai",
  // the edit permission is denied in its config
  selfReviewReadOnly: "cli",
  webTools: OPENCODE_WEB_TOOLS,
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: OPENCODE_FAMILY_SETTINGS,
  network: { takesBaseUrl: true, hosts: ["opencode.ai:443", "models.dev:443"] },
  homeFiles: xdgHomeFiles("opencode", ["opencode.json", "opencode.jsonc"]),
  profiles: { opencode: { adapter: "opencode", provider: "opencode", model: "opencode/hy3-free" } },
  listed: 7,
  plan,
  reader: async () => {
    const { parseOpencodeLine, finishOpencode } = await stream();
    return { parseLine: parseOpencodeLine, finish: finishOpencode };
  },
};

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
