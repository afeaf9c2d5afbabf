/**
 * Validates config text: JSONC, the original pi-worker's keys mapped (config/legacy.ts), zod with defaults,
 * names that point at profiles checked. The heavy half of loading (zod, jsonc-parser): config/load.ts asks
 * its cache first and imports this only on a miss.
 */
import { settingProblems } from "../adapters/capabilities/settings.ts";
import { SpotError } from "../errors.ts";
import { Config, Profile } from "../schemas/config.ts";
import { formatIssues, locatePath, parseWithSchema } from "../schemas/locate.ts";
import { DEFAULT_CONFIG, REPLAY_PROFILE } from "./defaults.ts";
import { type LegacyMapping, mapLegacyConfig } from "./legacy.ts";
import type { LoadedConfig } from "./loaded.ts";

/** The schema's own default, which may name a shipped profile a user's file does not list. */
const BUILT_IN_DEFAULT = Config.parse({}).defaultProfile;

/**
 * Names that point at profiles must point at real ones (replay always exists), and every setting a
 * profile gives its worker must have a way to reach that CLI (adapters/capabilities/settings.ts).
 */
const WithReferences = Config.superRefine((config, ctx) => {
  const known = (name: string) => name === "replay" || Object.hasOwn(config.profiles, name);
  for (const [name, profile] of Object.entries(config.profiles)) {
    for (const problem of settingProblems(profile)) {
      ctx.addIssue({ code: "custom", path: ["profiles", name, ...problem.path], message: problem.message });
    }
    profile.fallbackProfiles.forEach((target, i) => {
      if (known(target)) return;
      ctx.addIssue({
        code: "custom",
        path: ["profiles", name, "fallbackProfiles", i],
        message: `no profile named "${target}"`,
      });
    });
  }
  for (const [caller, target] of Object.entries(config.callerProfiles)) {
    if (target === undefined || known(target)) continue;
    ctx.addIssue({
      code: "custom",
      path: ["callerProfiles", caller],
      message: `no profile named "${target}"`,
    });
  }
  if (config.queue.backend === "nats" && !config.queue.url) {
    ctx.addIssue({
      code: "custom",
      path: ["queue", "url"],
      message: "the nats backend needs the server's url",
    });
  }
  if (!known(config.defaultProfile) && config.defaultProfile !== BUILT_IN_DEFAULT) {
    ctx.addIssue({
      code: "custom",
      path: ["defaultProfile"],
      message: `no profile named "${config.defaultProfile}"`,
    });
  }
});

/** Validates config text, legacy keys mapped first; every problem is `file:line:col path: message`, exit 2. */
export function readConfig(file: string, text: string): LoadedConfig {
  let legacy: LegacyMapping | null = null;
  const rewrite = (data: unknown) => {
    legacy = mapLegacyConfig(data);
    // A file that leaves `profiles` out keeps the shipped set (a config of one setting, e.g. `exitCodes`).
    const value = legacy.value;
    if (value && typeof value === "object" && !Array.isArray(value) && !("profiles" in value)) {
      return { ...legacy, value: { ...value, profiles: structuredClone(DEFAULT_CONFIG.profiles) } };
    }
    return legacy;
  };
  const parsed = parseWithSchema(text, WithReferences, { jsonc: true, rewrite });
  if (!parsed.ok) {
    throw new SpotError(
      "CONFIG_INVALID",
      `Cannot use config "${file}": ${parsed.issues.length} problem(s)\n${formatIssues(file, parsed.issues)}`,
      { details: { file, issues: parsed.issues } },
    );
  }
  const notes = (legacy as LegacyMapping | null)?.notes ?? [];
  const warnings = notes.map(({ path, ...note }) => ({ ...note, ...locatePath(text, path) }))
    .sort((a, b) => a.line - b.line || a.col - b.col);
  const replay = Profile.parse(REPLAY_PROFILE);
  return { config: { ...parsed.value, profiles: { replay, ...parsed.value.profiles } }, warnings };
}

export function parseConfig(file: string, text: string): Config {
  return readConfig(file, text).config;
}
