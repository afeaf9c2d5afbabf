/**
 * Doctor's network line: the plan `prepare` and `run` will use (isolation/worker_network.ts) for the chosen
 * profile under the sandbox doctor resolved, so doctor says yes only where the worker reaches its provider.
 */
import { unreachableMessage, workerNetwork } from "../isolation/worker_network.ts";
import { describeNetwork } from "../providers/network_plan.ts";
import type { Profile } from "../schemas/config.ts";
import type { SpotContext } from "../store/context.ts";
import type { Check } from "./check.ts";

export function networkCheck(
  ctx: SpotContext,
  name: string,
  profile: Profile,
  backend: string | null,
): Check {
  if (backend === null) {
    return { name: "network", ok: true, warn: true, detail: "no sandbox to judge (see sandbox)" };
  }
  if (backend === "none") {
    return { name: "network", ok: true, detail: "the host's network (no OS sandbox)" };
  }
  const plan = workerNetwork(ctx, name, profile);
  if (plan.mode === "unreachable") {
    return {
      name: "network",
      ok: false,
      detail: unreachableMessage(name, profile.provider, plan),
      fix: `${plan.fix}, or use --sandbox none`,
    };
  }
  return {
    name: "network",
    ok: true,
    warn: plan.mode === "allowlist" && plan.keyInSandbox,
    detail: describeNetwork(plan),
  };
}
