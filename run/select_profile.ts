/**
 * Which profile runs a task. This is the spine's rule: an explicit
 * `--profile` wins, else the config's default; high risk needs an explicit
 * choice. Difficulty routing plugs in here.
 */
import { SpotError } from "../errors.ts";
import type { Config, Profile } from "../schemas/config.ts";
import type { TaskContract } from "../schemas/task_contract.ts";

export interface ProfileChoice {
  name: string;
  profile: Profile;
  model: string;
  routing: { source: "flag" | "default"; candidatesConsidered: string[] };
}

export function selectProfile(
  config: Config,
  task: TaskContract,
  options: { profile?: string; model?: string },
): ProfileChoice {
  if (task.risk === "high" && !options.profile) {
    throw new SpotError("HIGH_RISK_BLOCKED", "Cannot delegate a high-risk task without an explicit profile", {
      details: { hint: "do it in the parent, or pass --profile after deciding the risk is acceptable" },
    });
  }
  const name = options.profile ?? config.defaultProfile;
  const profile = config.profiles[name];
  if (!profile) {
    throw new SpotError("PROFILE_NOT_FOUND", `Cannot find profile "${name}" in the config`, {
      details: { available: Object.keys(config.profiles) },
    });
  }
  const model = options.model ?? profile.model;
  if (!model) {
    throw new SpotError("CLI_USAGE", `Cannot use profile "${name}" without a model: pass --model`, {
      details: { hint: profile.adapter === "replay" ? "for replay, --model is the episode file" : undefined },
    });
  }
  return {
    name,
    profile,
    model,
    routing: { source: options.profile ? "flag" : "default", candidatesConsidered: [name] },
  };
}
