/**
 * Which profile runs a task. Order: an explicit profile (`--profile` or the
 * picker) > the caller's `callerProfiles` entry (with its own fallback
 * chain) > difficulty routing by cost tier > `defaultProfile`. Two gates no
 * flag opens: a high-risk task never reaches a worker, and a task needing a
 * modality never goes to a profile without it, however the profile was
 * named. Without a named profile, routing takes only profiles that are ready here (the caller's `ready`
 * says: CLI found, key set, provider reachable) and refuses with every candidate's reasons when none is.
 * Pure: config, task and that judgement in, a decision with everything it considered out.
 */
import { SpotError } from "../errors.ts";
import type { Config, CostTier, Profile } from "../schemas/config.ts";
import { decideDifficulty, type DifficultyDecision, type RoutableTask } from "./difficulty.ts";
import { fallbackChain, offers } from "./fallback.ts";

type Tier = (typeof CostTier)["options"][number];

export type ProfileSource = "flag" | "picker" | "caller" | "difficulty" | "default";

/** One reason a profile cannot run here, in doctor's terms: the check, what it found, the fix. */
export interface Unready {
  name: string;
  detail: string;
  fix?: string;
}

/** A profile routing passed over because it is not ready here, with doctor's reasons. */
export interface NotReady {
  profile: string;
  problems: Unready[];
}

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
  /** Profiles routing passed over because they are not ready here (absent when none was). */
  notReady?: NotReady[];
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
  /** How `profile` was named: `--profile`, the picker, or doctor checking `defaultProfile`. */
  profileSource?: "flag" | "picker" | "default";
  /** Why `profile` was named, for the decision's `matchReason` (default: "named by <source>"). */
  profileReason?: string;
  /**
   * What stops a profile from running here (empty: ready). Routing without a named profile skips a profile
   * with problems; a named profile is taken as named. Absent: every profile counts as ready.
   */
  ready?: (name: string, profile: Profile) => Unready[];
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

/** Profiles found not ready while routing, and the judgement itself. */
class Readiness {
  readonly skipped: NotReady[] = [];
  constructor(private config: Config, private judge?: SelectOptions["ready"]) {}

  /** True when the profile may run here; records why not otherwise. */
  ok(name: string): boolean {
    if (!this.judge) return true;
    const known = this.skipped.find((s) => s.profile === name);
    if (known) return false;
    const problems = this.judge(name, this.config.profiles[name]);
    if (problems.length === 0) return true;
    this.skipped.push({ profile: name, problems });
    return false;
  }
}

function byCaller(config: Config, task: RoutableTask, ready: Readiness, caller?: string): Candidate | null {
  const preferred = caller ? config.callerProfiles[caller as keyof Config["callerProfiles"]] : undefined;
  if (!preferred || !config.profiles[preferred]) return null;
  const chain = [preferred, ...fallbackChain(config, preferred)];
  const considered: string[] = [];
  for (const name of chain) {
    considered.push(name);
    if (offers(config.profiles[name], task.requiredCapabilities) && ready.ok(name)) {
      const how = name === preferred
        ? ""
        : ` (via its fallback chain: "${preferred}" lacks a capability or is not ready here)`;
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
  ready: Readiness,
  at: { target: Tier; domain: string | null },
): Candidate | null {
  const { target, domain } = at;
  const named = Object.entries(config.profiles).filter(([, p]) => p.costTier);
  if (named.length === 0) return null;
  const considered: string[] = [];
  for (const tier of TIER_ORDER[target]) {
    const inTier = named.filter(([, p]) => p.costTier === tier);
    considered.push(...inTier.map(([n]) => n));
    const fit = inTier.filter(([n, p]) => offers(p, task.requiredCapabilities) && ready.ok(n));
    if (fit.length === 0) continue;
    const strong = domain
      ? fit.find(([, p]) => p.strengths.includes(domain as Profile["strengths"][number]))
      : undefined;
    const [name] = strong ?? fit[0];
    const tierNote = tier === target ? `costTier ${tier}` : `costTier ${tier} (no fitting ${target} profile)`;
    const reason = strong ? `${tierNote}, strong in ${domain}` : `${tierNote}, first fitting`;
    return { name, source: "difficulty", reason, considered };
  }
  if (ready.skipped.length > 0) throw noneReady(config, task, ready.skipped);
  throw new SpotError("NO_ROUTABLE_PROFILE", `Cannot route the task: no profile offers ${needsText(task)}`, {
    details: {
      candidatesConsidered: considered,
      hint: "add a profile with those modalities, or pass --profile",
    },
  });
}

/** Every candidate routing could have picked is not ready here: each with doctor's reasons and fixes. */
function noneReady(config: Config, task: RoutableTask, skipped: NotReady[]): SpotError {
  const lines = skipped.map((s) =>
    `${s.profile} (${s.problems.map((p) => `${p.name}: ${p.detail}`).join("; ")})`
  );
  const replay = config.profiles.replay;
  // The scripted worker runs anywhere, but only an episode someone wrote: named as a dry run, never as a fix.
  const replayServes = replay?.adapter === "replay" && offers(replay, task.requiredCapabilities);
  // A newcomer with no key at all reads the message, not the details: the way out is said there too.
  const noKey = replayServes
    ? "; with no credentials, --profile replay --model <EPISODE> runs the built-in replay worker on a " +
      "scripted episode (a dry run of the loop, not a worker that reads your task)"
    : "";
  return new SpotError(
    "NO_ROUTABLE_PROFILE",
    `Cannot route the task: no profile it could go to is ready here: ${lines.join("; ")}${noKey}`,
    {
      details: {
        notReady: skipped,
        hint: "fix one of them (each problem carries doctor's fix; spot doctor --task FILE --profile P " +
          "checks one), or pass --profile for a profile that is set up" +
          (replayServes ? ", or --profile replay --model <EPISODE> for a dry run with no credentials" : ""),
        ...(replayServes
          ? {
            replay:
              "the built-in replay worker needs no CLI and no key: --profile replay --model EPISODE.jsonl " +
              "plays a scripted episode (a dry run of the loop, not a worker that reads your task)",
          }
          : {}),
      },
    },
  );
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
  const ready = new Readiness(config, options.ready);
  if (options.profile) {
    const source = options.profileSource ?? "flag";
    const reason = options.profileReason ?? `named by ${source}`;
    pick = { name: options.profile, source, reason, considered: [options.profile] };
  }
  pick ??= byCaller(config, task, ready, options.caller) ??
    byDifficulty(config, task, ready, { target: targetTier, domain: difficulty.domain }) ?? {
    name: config.defaultProfile,
    source: "default",
    reason: "no profile has a costTier: defaultProfile",
    considered: [config.defaultProfile],
  };
  if (pick.source === "default" && !options.profile && config.profiles[pick.name] && !ready.ok(pick.name)) {
    throw noneReady(config, task, ready.skipped);
  }
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
      ...(ready.skipped.length > 0 ? { notReady: ready.skipped } : {}),
    },
  };
}
