/** OpenCode (`opencode-ai`): `opencode run --format json`, its provider declared in the opencode.json spot writes. */
import type { AdapterSettings, CliRecord, HomeFiles } from "./record.ts";
import { SESSIONS_IN_PRIVATE_HOME, xdgDir } from "./record.ts";

/** `opencode models` prints one `provider/model` per line. */
export function parseModelLines(stdout: string): string[] {
  return stdout.split("\n").map((l) => l.trim()).filter((l) => /^[\w.@-]+\/\S+$/.test(l));
}

/** The web tools opencode and kilo share, named as their permission keys. */
export const OPENCODE_WEB_TOOLS: readonly string[] = ["webfetch", "websearch"];

/** opencode and its fork kilo take the same settings the same way. */
export const OPENCODE_FAMILY_SETTINGS: AdapterSettings = {
  reasoningEffort: {
    via: "config",
    name: "provider.<p>.models.<m>.options.reasoningEffort",
    needsBaseUrl: true,
  },
  maxContextSize: {
    via: "none",
    why: "its model limit needs an output limit beside the context one, and a profile has none",
  },
  maxTurns: { via: "config", name: "agent.build.steps" },
};

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
};
