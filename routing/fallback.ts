/**
 * Fallback chains: a profile's `fallbackProfiles`, followed depth-first
 * (a fallback's own fallbacks come after it), each name once, cycles cut.
 * Pure, so the worker phase can ask for the next profile after a transient
 * failure without re-routing.
 */
import type { Config, Profile } from "../schemas/config.ts";
import type { TaskContract } from "../schemas/task_contract.ts";

type Capability = TaskContract["requiredCapabilities"][number];

/** Does the profile offer every capability the task needs? Modality is a hard filter. */
export function offers(profile: Profile, needs: readonly Capability[] = ["text", "code"]): boolean {
  return needs.every((need) => {
    switch (need) {
      case "text":
        return profile.modalities.includes("text");
      case "vision-input":
        return profile.modalities.includes("vision");
      case "image-output":
        return profile.modalities.includes("image-output");
      default:
        return profile.capabilities.includes(need);
    }
  });
}

/** The ordered chain after `name` (not including it); unknown names are skipped. */
export function fallbackChain(config: Config, name: string): string[] {
  const out: string[] = [];
  const seen = new Set([name]);
  const walk = (from: string) => {
    for (const next of config.profiles[from]?.fallbackProfiles ?? []) {
      if (seen.has(next) || !Object.hasOwn(config.profiles, next)) continue;
      seen.add(next);
      out.push(next);
      walk(next);
    }
  };
  walk(name);
  return out;
}

/**
 * The profile to try after `profileName` failed transiently, skipping the
 * ones already `tried` and, when given, those lacking a required capability;
 * null when the chain is spent.
 */
export function nextFallback(
  config: Config,
  profileName: string,
  tried: readonly string[],
  options: { requiredCapabilities?: readonly Capability[] } = {},
): string | null {
  const done = new Set(tried);
  for (const name of fallbackChain(config, profileName)) {
    if (done.has(name)) continue;
    if (options.requiredCapabilities && !offers(config.profiles[name], options.requiredCapabilities)) {
      continue;
    }
    return name;
  }
  return null;
}
