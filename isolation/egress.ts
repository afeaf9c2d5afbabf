/**
 * Starts the egress proxy step for one sandboxed command (a dependency
 * setup) and stops it after: network to the allowlisted `host:port`s only,
 * its unix socket and its log.
 */
import { join } from "../base/path.ts";
import type { EgressMessage, EgressSpec } from "../steps/egress_step.ts";
import type { SpotContext } from "../store/context.ts";
import { type Channel, startChannel } from "./channel_step.ts";

export type EgressSummary = Extract<EgressMessage, { t: "summary" }>;
export type Egress = Channel<EgressSummary>;

export async function startEgress(
  ctx: SpotContext,
  options: { runId: string; allow: string[]; logName: string; timeoutMs: number },
): Promise<Egress> {
  const runDir = ctx.store.dir(options.runId);
  const logFile = join(runDir, options.logName);
  return await startChannel<EgressSpec, EgressSummary>(ctx, {
    kind: "egress",
    runId: options.runId,
    what: "egress proxy",
    details: { allow: options.allow },
    // The proxy checks each request, and Deno lets it reach nothing else: the same list twice.
    policy: { read: [join(runDir, "steps")], write: [logFile], env: [], net: options.allow },
    spec: (socket) => ({ socketPath: socket, allow: options.allow, logFile }),
    env: {},
    timeoutMs: options.timeoutMs,
  });
}
