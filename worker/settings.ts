/**
 * The profile settings a worker launch carries (adapters/capabilities/settings.ts says how each reaches its CLI):
 * the profile's own, with Qoder's snapped reasoningEffort and maxContextSize from routing.json when the
 * launch still runs the routed profile (a fallback profile brings its own).
 */
import type { ProfileSettings } from "../adapters/capabilities/settings.ts";
import type { Profile } from "../schemas/config.ts";
import { readJsonFile } from "../store/files.ts";

interface RoutingRecord {
  profile?: string;
  worker?: { reasoningEffort?: string; maxContextSize?: number };
}

export async function launchSettings(
  routingFile: string,
  name: string,
  profile: Profile | undefined,
): Promise<ProfileSettings> {
  const own: ProfileSettings = {
    reasoningEffort: profile?.reasoningEffort,
    maxContextSize: profile?.maxContextSize,
    maxTurns: profile?.limits?.maxTurns,
  };
  const routing = await readJsonFile<RoutingRecord>(routingFile).catch(() => null);
  if (routing?.profile !== name || !routing.worker) return own;
  return {
    ...own,
    // The snap only moves a value the profile set; it never adds one.
    ...(own.reasoningEffort !== undefined && routing.worker.reasoningEffort !== undefined
      ? { reasoningEffort: routing.worker.reasoningEffort }
      : {}),
    ...(own.maxContextSize !== undefined && routing.worker.maxContextSize !== undefined
      ? { maxContextSize: routing.worker.maxContextSize }
      : {}),
  };
}
