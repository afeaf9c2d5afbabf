/**
 * A channel out of a sandbox (the provider forwarder, the egress proxy): a
 * permission-scoped step listening on a unix socket in a private temp dir
 * with a short path (unix socket paths are limited to ~108 bytes), started
 * before the sandboxed command and stopped after it.
 */
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import type { StepPolicy } from "../sandbox/policy.ts";
import type { StepMessage } from "../steps/protocol.ts";
import type { SpotContext } from "../store/context.ts";
import { takeLease } from "../store/ledger.ts";
import { runStep, type StepKind, type StepOutcome } from "./step_runner.ts";

/** A Deno step starts in ~100 ms; a loaded machine gets plenty of room. */
const LISTEN_TIMEOUT_MS = 15_000;

export interface Channel<S> {
  socket: string;
  /** Ends the step and returns the summary it printed, if any. */
  stop(): Promise<S | null>;
}

export interface ChannelOptions<Spec> {
  kind: Extract<StepKind, "forwarder" | "egress">;
  runId: string;
  /** What the step may touch besides its socket dir (read, write, env, net: the socket is added). */
  policy: Omit<StepPolicy, "script" | "run">;
  /** The spec, given the socket path it must listen on. */
  spec: (socket: string) => Spec;
  env: Record<string, string>;
  timeoutMs: number;
  /** For the error when it does not start. */
  what: string;
  details?: Record<string, unknown>;
}

export async function startChannel<Spec, S>(
  ctx: SpotContext,
  options: ChannelOptions<Spec>,
): Promise<Channel<S>> {
  // A private directory with a short path, recorded before it exists: a `kill -9` of spot leaves it behind.
  const dir = join(ctx.env("TMPDIR") || "/tmp", `spot-${options.kind}-${crypto.randomUUID().slice(0, 12)}`);
  const lease = await takeLease(ctx.store.dir(options.runId), {
    kind: "dir",
    what: `${options.what} socket directory`,
    path: dir,
  });
  await Deno.mkdir(dir, { mode: 0o700 }).catch(async (error) => {
    await lease.release();
    throw error;
  });
  const socket = join(dir, "s.sock");
  const controller = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, controller.signal]) : controller.signal;
  let summary: S | null = null;
  let listening: () => void = () => {};
  const ready = new Promise<void>((resolve) => listening = resolve);
  const p = options.policy;
  const step: Promise<StepOutcome> = runStep({ ...ctx, signal }, {
    kind: options.kind,
    runId: options.runId,
    policy: {
      read: [...p.read, dir],
      write: [...p.write, dir],
      run: [],
      env: p.env,
      net: [...p.net, `unix:${socket}`],
    },
    spec: options.spec(socket),
    env: options.env,
    timeoutMs: options.timeoutMs,
    onMessage: (message: StepMessage) => {
      const m = message as unknown as { t: string };
      if (m.t === "listening") listening();
      if (m.t === "summary") summary = m as S;
    },
  });
  const cleanup = async () => {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await lease.release();
  };
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
    throw new SpotError("STEP_FAILED", `Cannot start the ${options.what} for "${options.runId}": ${why}`, {
      details: { ...options.details, nextCommand: `spot recover --id ${options.runId}` },
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
