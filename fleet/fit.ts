/**
 * What an executor can run: the profiles whose CLI is installed here (and whose key variable is set, for keyed
 * ones), or the ones named with `--profile`; and whether it offers an OS sandbox, decided the way `prepare`
 * decides it. A task that needs an OS sandbox never goes to an executor without one.
 */
import { cliRecord } from "../adapters/clis/mod.ts";
import { SpotError } from "../errors.ts";
import { hostHere, hostSandbox } from "../isolation/run_sandbox.ts";
import type { Fit } from "../queue/types.ts";
import { locateBinary } from "../registry/locate.ts";
import { resolveChoice } from "../sandbox/choose.ts";
import type { SpotContext } from "../store/context.ts";

/** This machine's name, as executors and origins are shown. */
export function hostName(): string {
  try {
    return Deno.hostname();
  } catch {
    return "unknown-host";
  }
}

/** A profile this machine can run: its CLI found, its key (when it has one) in the environment. */
function runnable(ctx: SpotContext, name: string): boolean {
  const profile = ctx.config.profiles[name];
  const adapter = profile && cliRecord(profile.adapter);
  if (!profile || !adapter) return false;
  if (profile.apiKeyEnv && !ctx.env(profile.apiKeyEnv)) return false;
  return locateBinary(profile.adapter, adapter, { env: ctx.env, profileBinary: profile.binary }).binary !==
    null;
}

export async function executorFit(ctx: SpotContext, named?: string[]): Promise<Fit> {
  const choice = ctx.config.sandbox ?? "auto";
  const host = resolveChoice(choice, await hostSandbox(hostHere(ctx), choice));
  const sandbox = host.ok && host.backend !== "none" ? "os" : "none";
  if (named?.length) {
    const unknown = named.filter((p) => !ctx.config.profiles[p]);
    if (unknown.length) {
      throw new SpotError(
        "PROFILE_NOT_FOUND",
        `Cannot serve profile "${unknown[0]}": the config has no such profile`,
      );
    }
    const missing = named.filter((p) => !runnable(ctx, p));
    if (missing.length) {
      throw new SpotError(
        "DOCTOR_FAILED",
        `Cannot serve profile "${missing[0]}" here: its CLI is not installed or its key is not set`,
        { details: { fix: `spot doctor --profile ${missing[0]}` } },
      );
    }
    return { profiles: named, sandbox };
  }
  const profiles = Object.keys(ctx.config.profiles).filter((p) => runnable(ctx, p)).sort();
  if (!profiles.length) {
    throw new SpotError("DOCTOR_FAILED", "Cannot start an executor: no profile's CLI is installed here", {
      details: { fix: "install a worker CLI (spot detect), or name profiles with --profile" },
    });
  }
  return { profiles, sandbox };
}
