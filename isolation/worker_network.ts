/**
 * The worker's network plan for a run (providers/network_plan.ts), with the facts read from the user's
 * environment: pi's models.json and the config's provider table over spot's defaults. `doctor`, `prepare`
 * and the worker launch all call this, so they cannot disagree.
 */
import { DEFAULT_PROVIDER_ENDPOINTS } from "../providers/endpoints.ts";
import { type NetworkPlan, planNetwork } from "../providers/network_plan.ts";
import { readPiProviders } from "../providers/pi_home.ts";
import type { Profile } from "../schemas/config.ts";
import type { SpotContext } from "../store/context.ts";

export function workerNetwork(
  ctx: SpotContext,
  name: string,
  profile: Pick<
    Profile,
    "adapter" | "provider" | "apiKeyEnv" | "baseUrl" | "providerType" | "egress" | "egressHosts"
  >,
): NetworkPlan {
  return planNetwork({ name, ...profile }, {
    piProviders: profile.adapter === "pi" ? readPiProviders(ctx.env) : null,
    endpoints: { ...DEFAULT_PROVIDER_ENDPOINTS, ...ctx.config.providerEndpoints },
  });
}

/** The error text for a plan with no route: what was tried, why it cannot work, and the fixes. */
export function unreachableMessage(
  profileName: string,
  provider: string,
  plan: Extract<NetworkPlan, { mode: "unreachable" }>,
): string {
  return `Cannot reach provider "${provider}" of profile "${profileName}" from the sandbox ` +
    `(tried the ${plan.tried}): ${plan.reason}. Fix: ${plan.fix}, or use --sandbox none`;
}
