/**
 * Starts the provider forwarder step for one worker turn and stops it after.
 * The forwarder is its own permission-scoped Deno process: network to the
 * provider's host and port only, its unix socket, its log, and the one env
 * var that holds the key.
 */
import { join } from "../base/path.ts";
import { DEFAULT_API, netPermission, type ProviderApi } from "../sandbox/provider_routes.ts";
import type { ForwarderMessage, ForwarderSpec } from "../steps/forwarder_step.ts";
import type { SpotContext } from "../store/context.ts";
import { type Channel, startChannel } from "./channel_step.ts";

/** A model request carries the whole conversation; long contexts stay far below this. */
export const MAX_REQUEST_BYTES = 16 * 1024 ** 2;
/** A streamed answer is a few hundred KB; this only stops a runaway. */
export const MAX_RESPONSE_BYTES = 64 * 1024 ** 2;

export type ForwarderSummary = Extract<ForwarderMessage, { t: "summary" }>;
export type Forwarder = Channel<ForwarderSummary>;

export interface ForwarderOptions {
  runId: string;
  upstream: string;
  api?: ProviderApi;
  keyEnv: string | null;
  key: string | undefined;
  placeholder: string;
  /** How long the forwarder may live at most (the worker's timeout plus a margin). */
  timeoutMs: number;
}

export async function startForwarder(ctx: SpotContext, options: ForwarderOptions): Promise<Forwarder> {
  const runDir = ctx.store.dir(options.runId);
  const logFile = join(runDir, "forwarder.jsonl");
  return await startChannel<ForwarderSpec, ForwarderSummary>(ctx, {
    kind: "forwarder",
    runId: options.runId,
    what: "provider forwarder",
    details: { upstream: options.upstream },
    policy: {
      read: [],
      write: [logFile],
      env: options.keyEnv ? [options.keyEnv] : [],
      net: [netPermission(options.upstream)],
    },
    spec: (socket) => ({
      socketPath: socket,
      upstream: options.upstream,
      api: options.api ?? DEFAULT_API,
      keyEnv: options.keyEnv,
      placeholder: options.placeholder,
      logFile,
      maxRequestBytes: MAX_REQUEST_BYTES,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    }),
    env: options.keyEnv && options.key !== undefined ? { [options.keyEnv]: options.key } : {},
    timeoutMs: options.timeoutMs,
  });
}
