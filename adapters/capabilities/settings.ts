/**
 * Which profile settings each worker CLI can take, and how: the one table
 * the adapters' launch plans read and config load checks profiles against.
 * A setting the table has no way for is refused when the config loads, so a
 * profile never says something its worker silently ignores.
 *
 * Sources: each installed CLI's own `--help` and bundled settings schema
 * (pi 0.73.1, opencode 1.18.33, kilo 7.7.7, codex 0.171.0, claude 2.1.197,
 * gemini 0.61.0, qwen 0.15.10, qodercli 1.1.52), and for kimi its
 * documented config file. docs/config.md prints the table.
 */

/** The profile settings this table covers, as the profile writes them. */
export type SettingKey = "reasoningEffort" | "maxContextSize" | "maxTurns";

export const SETTING_KEYS: readonly SettingKey[] = ["reasoningEffort", "maxContextSize", "maxTurns"];

/** Where the profile writes each setting (maxTurns sits under limits). */
export const SETTING_PATH: Readonly<Record<SettingKey, readonly string[]>> = {
  reasoningEffort: ["reasoningEffort"],
  maxContextSize: ["maxContextSize"],
  maxTurns: ["limits", "maxTurns"],
};

/** How a CLI takes a setting: a flag, an env variable, or a key in the config file spot writes for it. */
export type SettingRoute =
  | { via: "flag"; name: string; values?: readonly string[] }
  | { via: "env"; name: string }
  | {
    via: "config";
    /** The key in the CLI's own config file, as documentation. */
    name: string;
    values?: readonly string[];
    /** spot writes that entry only when it declares the provider itself, which needs a baseUrl. */
    needsBaseUrl?: boolean;
  }
  | { via: "none"; why: string };

export type AdapterSettings = Readonly<Record<SettingKey, SettingRoute>>;

/** pi's --thinking levels and codex's model_reasoning_effort values: no "max". */
const UP_TO_XHIGH = ["minimal", "low", "medium", "high", "xhigh"] as const;
/** claude's --effort levels: no "minimal". */
const LOW_TO_MAX = ["low", "medium", "high", "xhigh", "max"] as const;

const none = (why: string): SettingRoute => ({ via: "none", why });

const OPENCODE_FAMILY: AdapterSettings = {
  reasoningEffort: {
    via: "config",
    name: "provider.<p>.models.<m>.options.reasoningEffort",
    needsBaseUrl: true,
  },
  maxContextSize: none(
    "its model limit needs an output limit beside the context one, and a profile has none",
  ),
  maxTurns: { via: "config", name: "agent.build.steps" },
};

const NOTHING = (cli: string): AdapterSettings => ({
  reasoningEffort: none(`${cli} has no flag, variable or config key spot can set for it`),
  maxContextSize: none(`${cli} has no flag, variable or config key spot can set for it`),
  maxTurns: none(`${cli} has no flag, variable or config key spot can set for it`),
});

export const ADAPTER_SETTINGS: Readonly<Record<string, AdapterSettings>> = {
  pi: {
    reasoningEffort: { via: "flag", name: "--thinking", values: UP_TO_XHIGH },
    maxContextSize: { via: "config", name: "models.json contextWindow", needsBaseUrl: true },
    maxTurns: none("pi has no turn limit"),
  },
  opencode: OPENCODE_FAMILY,
  kilo: OPENCODE_FAMILY,
  codex: {
    reasoningEffort: { via: "config", name: "config.toml model_reasoning_effort", values: UP_TO_XHIGH },
    maxContextSize: { via: "config", name: "config.toml model_context_window" },
    maxTurns: none("codex exec has no turn limit"),
  },
  claude: {
    reasoningEffort: { via: "flag", name: "--effort", values: LOW_TO_MAX },
    maxContextSize: { via: "env", name: "CLAUDE_CODE_AUTO_COMPACT_WINDOW" },
    maxTurns: { via: "flag", name: "--max-turns" },
  },
  gemini: {
    reasoningEffort: none(
      "gemini-cli takes thinking settings only through model-config aliases spot does not write",
    ),
    maxContextSize: none("gemini-cli has no context-window setting"),
    maxTurns: { via: "config", name: "settings.json model.maxSessionTurns" },
  },
  qwen: {
    reasoningEffort: { via: "config", name: "settings.json model.generationConfig.reasoning.effort" },
    maxContextSize: { via: "config", name: "settings.json model.generationConfig.contextWindowSize" },
    maxTurns: { via: "flag", name: "--max-session-turns" },
  },
  kimi: {
    reasoningEffort: none("kimi's config.toml has only an on/off thinking switch"),
    maxContextSize: { via: "config", name: "config.toml max_context_size" },
    maxTurns: { via: "config", name: "config.toml loop_control.max_steps_per_turn" },
  },
  qoder: {
    reasoningEffort: { via: "flag", name: "--reasoning-effort" },
    maxContextSize: { via: "flag", name: "--context-window" },
    maxTurns: { via: "flag", name: "--max-turns" },
  },
  trae: NOTHING("traecli"),
  codebuddy: NOTHING("codebuddy"),
  zcode: NOTHING("zcode"),
  replay: NOTHING("the replay worker"),
};

/** The values of the three settings a profile sets, flat. */
export interface ProfileSettings {
  reasoningEffort?: string;
  maxContextSize?: number;
  maxTurns?: number;
}

/** The fields `settingProblems` reads from a profile. */
export interface SettingsProfile {
  adapter: string;
  baseUrl?: string;
  reasoningEffort?: string;
  maxContextSize?: number;
  limits?: { maxTurns?: number };
}

export function profileSettings(profile: SettingsProfile): ProfileSettings {
  return {
    reasoningEffort: profile.reasoningEffort,
    maxContextSize: profile.maxContextSize,
    maxTurns: profile.limits?.maxTurns,
  };
}

export interface SettingProblem {
  /** Path inside the profile (e.g. ["limits", "maxTurns"]). */
  path: readonly string[];
  message: string;
}

/** Why each setting this profile sets cannot reach its CLI; empty when all can (or the adapter is unknown). */
export function settingProblems(profile: SettingsProfile): SettingProblem[] {
  const table = Object.hasOwn(ADAPTER_SETTINGS, profile.adapter) ? ADAPTER_SETTINGS[profile.adapter] : null;
  if (!table) return [];
  const values = profileSettings(profile);
  const problems: SettingProblem[] = [];
  for (const key of SETTING_KEYS) {
    const value = values[key];
    if (value === undefined) continue;
    const route = table[key];
    const path = SETTING_PATH[key];
    const fail = (detail: string) =>
      problems.push({
        path,
        message: `the ${profile.adapter} adapter cannot pass ${key} to its CLI: ${detail}`,
      });
    if (route.via === "none") fail(`${route.why}; remove it or use another adapter`);
    else if ("values" in route && route.values && !route.values.includes(String(value))) {
      fail(`"${value}" is not one of ${route.values.join(" ")}`);
    } else if (route.via === "config" && route.needsBaseUrl && !profile.baseUrl) {
      fail(`it goes in the ${route.name} entry spot writes only for a profile with a baseUrl`);
    }
  }
  return problems;
}

/** The flags the table routes to argv, in table order, for the settings the launch carries. */
export function settingFlags(adapter: string, values: ProfileSettings): string[] {
  return routed(adapter, values, "flag").flatMap(([route, value]) => [route.name, String(value)]);
}

/** The variables the table routes to the environment. */
export function settingEnv(adapter: string, values: ProfileSettings): Record<string, string> {
  return Object.fromEntries(
    routed(adapter, values, "env").map(([route, value]) => [route.name, String(value)]),
  );
}

/** A setting's value when the table sends it through the CLI's config file, else undefined. */
export function configSetting<K extends SettingKey>(
  adapter: string,
  values: ProfileSettings,
  key: K,
): ProfileSettings[K] | undefined {
  const route = ADAPTER_SETTINGS[adapter]?.[key];
  return route?.via === "config" ? values[key] : undefined;
}

function routed(
  adapter: string,
  values: ProfileSettings,
  via: "flag" | "env",
): [{ name: string }, string | number][] {
  const table = ADAPTER_SETTINGS[adapter];
  if (!table) return [];
  const out: [{ name: string }, string | number][] = [];
  for (const key of SETTING_KEYS) {
    const route = table[key];
    const value = values[key];
    if (value !== undefined && route.via === via) out.push([route, value]);
  }
  return out;
}
