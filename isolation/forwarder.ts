/**
 * Starts the provider forwarder step for one worker turn and stops it after.
 * The forwarder is its own permission-scoped Deno process: network to the
 * provider's host and port only, its unix socket, its log, and the one env
 * var that holds the key. The socket lives in a private temp dir with a
 * short path (unix socket paths are limited to ~108 bytes).
 */
import { join } from "node:path";
import { SpotError } from "../errors.ts";
import { DEFAULT_API, netPermission, type ProviderApi } from "../sandbox/provider_routes.ts";
import type { StepMessage } from "../steps/protocol.ts";
import type { ForwarderMessage, ForwarderSpec } from "../steps/forwarder_step.ts";
import type { SpotContext } from "../store/context.ts";
import { runStep, type StepOutcome } from "./step_runner.ts";

/** A model request carries the whole conversation; long contexts stay far below this. */
export const MAX_REQUEST_BYTES = 16 * 1024 ** 2;
/** A streamed answer is a few hundred KB; this only stops a runaway. */
export const MAX_RESPONSE_BYTES = 64 * 1024 ** 2;
/** A Deno step starts in ~100 ms; a loaded machine gets plenty of room. */
const LISTEN_TIMEOUT_MS = 15_000;

export type ForwarderSummary = Extract<ForwarderMessage, { t: "summary" }>;

export interface Forwarder {
  socket: string;
  /** Ends the forwarder and returns what it metered. */
  stop(): Promise<ForwarderSummary | null>;
}

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
  const dir = await Deno.makeTempDir({ prefix: "spot-fwd-" });
  const socket = join(dir, "p.sock");
  const runDir = ctx.store.dir(options.runId);
  const logFile = join(runDir, "forwarder.jsonl");
  const spec: ForwarderSpec = {
    socketPath: socket,
    upstream: options.upstream,
    api: options.api ?? DEFAULT_API,
    keyEnv: options.keyEnv,
    placeholder: options.placeholder,
    logFile,
    maxRequestBytes: MAX_REQUEST_BYTES,
    maxResponseBytes: MAX_RESPONSE_BYTES,
  };
  const controller = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, controller.signal]) : controller.signal;
  let summary: ForwarderSummary | null = null;
  let listening: () => void = () => {};
  const ready = new Promise<void>((resolve) => listening = resolve);
  const step: Promise<StepOutcome> = runStep({ ...ctx, signal }, {
    kind: "forwarder",
    runId: options.runId,
    policy: {
      read: [join(runDir, "steps"), dir],
      write: [dir, logFile],
      run: [],
      env: options.keyEnv ? [options.keyEnv] : [],
      net: [netPermission(options.upstream), `unix:${socket}`],
    },
    spec,
    env: options.keyEnv && options.key !== undefined ? { [options.keyEnv]: options.key } : {},
    timeoutMs: options.timeoutMs,
    onMessage: (message: StepMessage) => {
      const m = message as unknown as ForwarderMessage;
      if (m.t === "listening") listening();
      if (m.t === "summary") summary = m;
    },
  });
  const cleanup = () => Deno.remove(dir, { recursive: true }).catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    ready.then(() => "ready" as const),
    step.then(() => "ended" as const),
    new Promise<"timeout">((resolve) => timer = setTimeout(() => resolve("timeout"), LISTEN_TIMEOUT_MS)),
  ]);
  clearTimeout(timer);
  if (outcome !== "ready") {
    controller.abort();
    const ended = await step;
    await cleanup();
    const why = outcome === "timeout"
      ? "it did not listen in time"
      : ended.result.stderr.trim().split("\n").pop();
    throw new SpotError("STEP_FAILED", `Cannot start the provider forwarder for "${options.runId}": ${why}`, {
      details: { upstream: options.upstream, nextCommand: `spot recover --id ${options.runId}` },
    });
  }
  return {
    socket,
    stop: async () => {
      controller.abort();
      await step;
      await cleanup();
      return summary;
    },
  };
}
