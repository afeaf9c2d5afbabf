/**
 * Which profile settings each worker CLI can take, and how: the table the
 * adapters' launch plans read and config load checks profiles against, made
 * of the `settings` row of each CLI's record (adapters/clis/). A setting the
 * table has no way for is refused when the config loads, so a profile never
 * says something its worker silently ignores.
 *
 * Sources of the rows: each installed CLI's own `--help` and bundled settings
 * schema (the versions tests/workers/package.json pins, qodercli 1.1.52), and
 * the documented config file of the CLIs that do not install here.
 * docs/config.md prints the table.
 */

import { type AdapterSettings, CLI_RECORDS, type SettingKey } from "../clis/mod.ts";
import { type ProfileSettings, settingFlags as routeFlags } from "./routes.ts";

export type { AdapterSettings, SettingKey, SettingRoute } from "../clis/mod.ts";

export const SETTING_KEYS: readonly SettingKey[] = ["reasoningEffort", "maxContextSize", "maxTurns"];

/** Where the profile writes each setting (maxTurns sits under limits). */
export const SETTING_PATH: Readonly<Record<SettingKey, readonly string[]>> = {
  reasoningEffort: ["reasoningEffort"],
  maxContextSize: ["maxContextSize"],
  maxTurns: ["limits", "maxTurns"],
};

/** Each CLI's row, from its record. */
export const ADAPTER_SETTINGS: Readonly<Record<string, AdapterSettings>> = Object.fromEntries(
  CLI_RECORDS.map((r) => [r.name, r.settings]),
);

export type { ProfileSettings } from "./routes.ts";

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

/** The flags a CLI's row routes to argv (by the CLI's name; adapters/capabilities/routes.ts by its row). */
export function settingFlags(adapter: string, values: ProfileSettings): string[] {
  const row = ADAPTER_SETTINGS[adapter];
  return row ? routeFlags(row, values) : [];
}
