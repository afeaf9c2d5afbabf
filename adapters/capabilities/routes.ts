/**
 * A launch plan's reading of its CLI's settings row (the record's `settings`): which profile settings go out
 * as flags, as variables, or into the config file spot writes. Takes the row itself, so a record's own plan
 * reads it without importing the index of every record.
 */
import type { AdapterSettings, SettingKey } from "../clis/record.ts";

/** The values of the three settings a profile sets, flat. */
export interface ProfileSettings {
  reasoningEffort?: string;
  maxContextSize?: number;
  maxTurns?: number;
}

const KEYS: readonly SettingKey[] = ["reasoningEffort", "maxContextSize", "maxTurns"];

/** The flags the row routes to argv, in row order, for the settings the launch carries. */
export function settingFlags(row: AdapterSettings, values: ProfileSettings): string[] {
  return routed(row, values, "flag").flatMap(([route, value]) => [route.name, String(value)]);
}

/** The variables the row routes to the environment. */
export function settingEnv(row: AdapterSettings, values: ProfileSettings): Record<string, string> {
  return Object.fromEntries(routed(row, values, "env").map(([route, value]) => [route.name, String(value)]));
}

/** A setting's value when the row sends it through the CLI's config file, else undefined. */
export function configSetting<K extends SettingKey>(
  row: AdapterSettings,
  values: ProfileSettings,
  key: K,
): ProfileSettings[K] | undefined {
  return row[key].via === "config" ? values[key] : undefined;
}

function routed(
  row: AdapterSettings,
  values: ProfileSettings,
  via: "flag" | "env",
): [{ name: string }, string | number][] {
  const out: [{ name: string }, string | number][] = [];
  for (const key of KEYS) {
    const route = row[key];
    const value = values[key];
    if (value !== undefined && route.via === via) out.push([route, value]);
  }
  return out;
}
