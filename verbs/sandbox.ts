/**
 * `spot sandbox`: which OS sandbox a run would get here, and why. It refuses
 * (SANDBOX_UNAVAILABLE, exit 4) exactly when `prepare` would.
 */
import type { SpotContext } from "../store/context.ts";
import { decideSandbox, probeHere } from "../isolation/run_sandbox.ts";

export async function describeSandbox(ctx: SpotContext, options: { sandbox?: string }) {
  const probe = Deno.build.os === "linux" ? await probeHere(ctx) : null;
  const { level, details } = await decideSandbox(ctx, { flag: options.sandbox });
  return {
    level,
    ...details,
    probe: probe && { available: probe.available, reason: probe.reason, prlimit: probe.prlimit },
  };
}
