/**
 * Which profile runs a task. Order: an explicit profile (`--profile` or the
 * picker) > the caller's `callerProfiles` entry (with its own fallback
 * chain) > difficulty routing by cost tier > `defaultProfile`. Two gates no
 * flag opens: a high-risk task never reaches a worker, and a task needing a
 * modality never goes to a profile without it, however the profile was
 * named. Pure: config and task in, a decision with everything it considered out.
 */
import { SpotError } from "../errors.ts";
import type { Config, CostTier, Profile } from "../schemas/config.ts";
import { decideDifficulty, type DifficultyDecision, type RoutableTask } from "./difficulty.ts";
import { fallbackChain, offers } from "./fallback.ts";

type Tier = (typeof CostTier)["options"][number];

export type ProfileSource = "flag" | "picker" | "caller" | "difficulty" | "default";

export interface RoutingDecision extends DifficultyDecision {
  profile: string;
  profileSource: ProfileSource;
  targetTier: Tier;
  /** Why this profile among the candidates. */
  matchReason: string;
  /** Every profile routing looked at, in order. */
  candidatesConsidered: string[];
  /** Profiles to try, in order, if this one fails transiently. */
  fallbackChain: string[];
}

export interface ProfileChoice {
  name: string;
  profile: Profile;
  model: string;
  routing: RoutingDecision;
}

export interface SelectOptions {
  profile?: string;
  model?: string;
  /** The detected parent agent, for `callerProfiles`. */
  caller?: string;
  /** Set when a person chose the profile in the picker. */
  profileSource?: "flag" | "picker";
  /** doctor routes without a model (replay's is the episode file); prepare needs one. */
  requireModel?: boolean;
}

export const TARGET_TIER: Record<DifficultyDecision["difficulty"], Tier> = {
  low: "cheap",
  medium: "standard",
  high: "premium",
};

/** When the target tier has no fitting profile: a cheap task may go free, then up; others go up, then down. */
const TIER_ORDER: Record<Tier, Tier[]> = {
  free: ["free", "cheap", "standard", "premium"],
  cheap: ["cheap", "free", "standard", "premium"],
  standard: ["standard", "premium", "cheap", "free"],
  premium: ["premium", "standard", "cheap", "free"],
};

interface Candidate {
  name: string;
  source: ProfileSource;
  reason: string;
  considered: string[];
}

function byCaller(config: Config, task: RoutableTask, caller?: string): Candidate | null {
  const preferred = caller ? config.callerProfiles[caller as keyof Config["callerProfiles"]] : undefined;
  if (!preferred || !config.profiles[preferred]) return null;
  const chain = [preferred, ...fallbackChain(config, preferred)];
  const considered: string[] = [];
  for (const name of chain) {
    considered.push(name);
    if (offers(config.profiles[name], task.requiredCapabilities)) {
      const how = name === preferred ? "" : ` (via its fallback chain: "${preferred}" lacks a capability)`;
      return {
        name,
        source: "caller",
        reason: `callerProfiles.${caller} = "${preferred}"${how}`,
        considered,
      };
    }
  }
  return null;
}

function byDifficulty(
  config: Config,
  task: RoutableTask,
  target: Tier,
  domain: string | null,
): Candidate | null {
  const named = Object.entries(config.profiles).filter(([, p]) => p.costTier);
  if (named.length === 0) return null;
  const considered: string[] = [];
  for (const tier of TIER_ORDER[target]) {
    const inTier = named.filter(([, p]) => p.costTier === tier);
    considered.push(...inTier.map(([n]) => n));
    const fit = inTier.filter(([, p]) => offers(p, task.requiredCapabilities));
    if (fit.length === 0) continue;
    const strong = domain
      ? fit.find(([, p]) => p.strengths.includes(domain as Profile["strengths"][number]))
      : undefined;
    const [name] = strong ?? fit[0];
    const tierNote = tier === target ? `costTier ${tier}` : `costTier ${tier} (no fitting ${target} profile)`;
    const reason = strong ? `${tierNote}, strong in ${domain}` : `${tierNote}, first fitting`;
    return { name, source: "difficulty", reason, considered };
  }
  throw new SpotError("NO_ROUTABLE_PROFILE", `Cannot route the task: no profile offers ${needsText(task)}`, {
    details: {
      candidatesConsidered: considered,
      hint: "add a profile with those modalities, or pass --profile",
    },
  });
}

function needsText(task: RoutableTask): string {
  return (task.requiredCapabilities ?? ["text", "code"]).join(", ");
}

function lookup(config: Config, name: string): Profile {
  const profile = config.profiles[name];
  if (!profile) {
    throw new SpotError("PROFILE_NOT_FOUND", `Cannot find profile "${name}" in the config`, {
      details: { available: Object.keys(config.profiles) },
    });
  }
  return profile;
}

export function selectProfile(config: Config, task: RoutableTask, options: SelectOptions): ProfileChoice {
  const difficulty = decideDifficulty(task);
  const targetTier = TARGET_TIER[difficulty.difficulty];
  if (task.risk === "high") {
    throw new SpotError(
      "HIGH_RISK_BLOCKED",
      "Cannot delegate a high-risk task: it stays with the parent agent",
      {
        details: {
          hint: "do it in the parent; security, auth, production and irreversible work is not delegated",
        },
      },
    );
  }
  let pick: Candidate | null = null;
  if (options.profile) {
    const source = options.profileSource ?? "flag";
    pick = { name: options.profile, source, reason: `named by ${source}`, considered: [options.profile] };
  }
  pick ??= byCaller(config, task, options.caller) ??
    byDifficulty(config, task, targetTier, difficulty.domain) ?? {
    name: config.defaultProfile,
    source: "default",
    reason: "no profile has a costTier: defaultProfile",
    considered: [config.defaultProfile],
  };
  const profile = lookup(config, pick.name);
  if (!offers(profile, task.requiredCapabilities)) {
    throw new SpotError(
      "CAPABILITY_MISMATCH",
      `Cannot use profile "${pick.name}" for a task that needs ${needsText(task)}: it offers ${
        profile.modalities.join(", ")
      } (capabilities ${profile.capabilities.join(", ")})`,
      { details: { profile: pick.name, needs: task.requiredCapabilities ?? ["text", "code"] } },
    );
  }
  const model = options.model ?? profile.model;
  if (!model && options.requireModel !== false) {
    throw new SpotError("CLI_USAGE", `Cannot use profile "${pick.name}" without a model: pass --model`, {
      details: { hint: profile.adapter === "replay" ? "for replay, --model is the episode file" : undefined },
    });
  }
  const chain = fallbackChain(config, pick.name).filter((n) =>
    offers(config.profiles[n], task.requiredCapabilities)
  );
  return {
    name: pick.name,
    profile,
    model,
    routing: {
      ...difficulty,
      profile: pick.name,
      profileSource: pick.source,
      targetTier,
      matchReason: pick.reason,
      candidatesConsidered: pick.considered,
      fallbackChain: chain,
    },
  };
}
