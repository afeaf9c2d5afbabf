/**
 * Starts the egress proxy step for one sandboxed command (a dependency setup,
 * an allowlisted worker, a research turn's web tools) and stops it after:
 * network to the allowlisted `host:port`s only, its unix socket and its log,
 * and, with a provider route, the forwarder's socket.
 */
import { join } from "../base/path.ts";
import { BRIDGE_PORT } from "../sandbox/sandbox_policy.ts";
import type { EgressMessage, EgressSpec } from "../steps/egress_step.ts";
import type { SpotContext } from "../store/context.ts";
import { type Channel, startChannel } from "./channel_step.ts";

export type EgressSummary = Extract<EgressMessage, { t: "summary" }>;
export type Egress = Channel<EgressSummary>;

export interface EgressOptions {
  runId: string;
  allow: string[];
  logName: string;
  timeoutMs: number;
  /** The forwarder's unix socket: requests for its inside address (127.0.0.1:18765) are carried there. */
  forwarderSocket?: string;
}

export async function startEgress(ctx: SpotContext, options: EgressOptions): Promise<Egress> {
  const runDir = ctx.store.dir(options.runId);
  const logFile = join(runDir, options.logName);
  const socket = options.forwarderSocket;
  return await startChannel<EgressSpec, EgressSummary>(ctx, {
    kind: "egress",
    runId: options.runId,
    what: "egress proxy",
    details: { allow: options.allow },
    // The proxy checks each request, and Deno lets it reach nothing else: the same list twice, and the
    // forwarder's socket (which Deno names as read, write and net) when it routes to it.
    policy: {
      read: [...(socket ? [socket] : [])],
      write: [logFile, ...(socket ? [socket] : [])],
      env: [],
      net: [...options.allow, ...(socket ? [`unix:${socket}`] : [])],
    },
    spec: (listen) => ({
      socketPath: listen,
      allow: options.allow,
      logFile,
      ...(socket ? { providerRoute: { host: "127.0.0.1", port: BRIDGE_PORT, socket } } : {}),
    }),
    env: {},
    timeoutMs: options.timeoutMs,
  });
}
