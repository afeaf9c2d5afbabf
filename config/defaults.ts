/**
 * The config written on first use: the profiles each worker CLI's record ships (adapters/clis/), in record
 * order: the seed's pi profiles, one profile per other CLI, and the built-in replay worker. Profiles without
 * a `costTier` stay out of difficulty routing: they run only when named (`--profile`, `callerProfiles`, a
 * fallback chain, or the picker).
 */
import type { z } from "zod";
import { CLI_RECORDS, type ProfileInput } from "../adapters/clis/mod.ts";
import type { Config } from "../schemas/config.ts";

const BUILT_IN = CLI_RECORDS.find((r) => r.builtIn)!;

/** Always present, even when the user's file lists other profiles: the built-in worker's one profile. */
export const REPLAY_PROFILE: ProfileInput = Object.values(BUILT_IN.profiles ?? {})[0];

export const DEFAULT_CONFIG: z.input<typeof Config> = {
  schemaVersion: 1,
  defaultProfile: "volcengine",
  maxConcurrentRuns: 4,
  maxRevisionRounds: 2,
  callerProfiles: {},
  profiles: Object.assign({}, ...CLI_RECORDS.map((r) => r.profiles ?? {})),
};

/** The file written on first use. */
export function defaultConfigText(): string {
  return JSON.stringify(DEFAULT_CONFIG, null, 2) + "\n";
}
