/**
 * Is a profile ready to run here, by the checks doctor makes that start no process: its adapter is known,
 * its CLI is found, its key variable is set, and its provider is reachable from the sandbox. Routing
 * without `--profile` takes only ready profiles (`prepare` and `doctor --task` pass this to it), so a run is
 * never admitted to a profile that `run` could only fail with. Version checks and model lists need the CLI
 * to run and stay with `spot doctor`.
 */
import { cliRecord } from "../adapters/clis/mod.ts";
import { binaryEnvName, locateBinary } from "../registry/locate.ts";
import type { Unready } from "../routing/select_profile.ts";
import type { Profile } from "../schemas/config.ts";
import type { SpotContext } from "../store/context.ts";
import { credentialCheck } from "./keys.ts";
import { networkCheck } from "./network.ts";

/** What stops the profile from running here; empty when nothing does. `backend` is the sandbox's, or null. */
export function profileProblems(
  ctx: SpotContext,
  name: string,
  profile: Profile,
  backend: string | null,
): Unready[] {
  // The record, not the adapter: routing needs the binary's names, not the stream reader (docs/performance.md).
  const adapter = cliRecord(profile.adapter);
  if (!adapter) return [{ name: "adapter", detail: `no adapter named "${profile.adapter}"` }];
  const located = locateBinary(profile.adapter, adapter, { env: ctx.env, profileBinary: profile.binary });
  const problems: Unready[] = [];
  if (!located.binary) {
    problems.push({
      name: "worker binary",
      detail: `${located.wanted} not found`,
      fix: `install ${adapter.defaultBinary}, or set ${binaryEnvName(profile.adapter)} to its path`,
    });
  }
  const checks = [...credentialCheck(ctx, name, profile), networkCheck(ctx, name, profile, backend)];
  for (const c of checks) if (!c.ok) problems.push({ name: c.name, detail: c.detail, fix: c.fix });
  return problems;
}

/** The `ready` judgement routing takes, for the sandbox `backend` a run would get. */
export function readyHere(
  ctx: SpotContext,
  backend: string | null,
): (name: string, profile: Profile) => Unready[] {
  return (name, profile) => profileProblems(ctx, name, profile, backend);
}
