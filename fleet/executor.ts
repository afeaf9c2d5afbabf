/**
 * `spot executor`: this machine joins the fleet under a name, with a capacity. It claims work that fits (the
 * profiles it can run, the sandbox it offers), runs each attempt as a local run (fleet/execute.ts), heartbeats
 * every held task, stops an attempt within a heartbeat of its task being cancelled or its lease lost, and
 * announces itself for `spot executor ls`. `drain` (SIGTERM) stops claiming and lets what runs finish, up to
 * `drainSeconds`, then gives the rest back; `stop` (SIGINT) gives everything back at once.
 */
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import type { ExecutorRecord } from "../queue/item.ts";
import { openQueue } from "../queue/open.ts";
import type { Claim, Queue } from "../queue/types.ts";
import type { SpotContext } from "../store/context.ts";
import { type AttemptOutcome, executeAttempt } from "./execute.ts";
import { executorFit, hostName } from "./fit.ts";
import { discardLeftovers } from "./workspace.ts";

export const EXECUTOR_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** How long one claim waits for work before the loop looks at its signals again. */
const CLAIM_WAIT_MS = 1_000;
/** How long a leaving executor's last announcement and its connection's close may wait for the server. */
const LEAVE_MS = 3_000;

export interface ExecutorOptions {
  name?: string;
  capacity?: number;
  profiles?: string[];
  drainSeconds?: number;
  /** Aborted to stop claiming and finish what runs (SIGTERM). */
  drain: AbortSignal;
  /** Aborted to stop at once, giving every task back (SIGINT, or the drain's time ran out). */
  stop: AbortSignal;
  /** Each attempt's end, for the log. */
  onOutcome?: (taskId: string, outcome: AttemptOutcome) => void;
}

interface Running {
  claim: Claim;
  since: string;
  abort: AbortController;
  why: string;
  done: Promise<void>;
}

/** Holds the executor's lock: two executors on one state directory would discard each other's work. */
async function holdExecutorLock(ctx: SpotContext): Promise<Deno.FsFile> {
  await Deno.mkdir(join(ctx.paths.stateRoot, "fleet"), { recursive: true });
  const file = await Deno.open(join(ctx.paths.stateRoot, "fleet", "executor.lock"), {
    read: true,
    write: true,
    create: true,
    mode: 0o600,
  });
  if (!(await file.tryLock(true))) {
    file.close();
    throw new SpotError("RUN_LOCKED", `Cannot start an executor: another one uses ${ctx.paths.stateRoot}`, {
      details: { hint: "give each executor its own PI_WORKER_STATE_DIR and PI_WORKER_CACHE_DIR" },
    });
  }
  return file;
}

/**
 * Renews the attempt's lease until it ends; a lost lease or a cancel aborts it, and so does a lease that ran out
 * with no heartbeat answered: a heartbeat rides out an outage for up to a minute (queue/retry.ts), far longer
 * than another executor waits to take the task over.
 */
async function guard(queue: Queue, r: Running, beatMs: number): Promise<void> {
  let lastHeld = Date.now();
  const away = "no heartbeat reached the queue within the lease";
  while (!r.abort.signal.aborted) {
    await new Promise((res) => setTimeout(res, beatMs));
    if (r.abort.signal.aborted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const leaseOut = new Promise<"out">((res) => {
      timer = setTimeout(() => res("out"), Math.max(0, lastHeld + queue.leaseMs - Date.now()));
    });
    try {
      const lease = await Promise.race([r.claim.heartbeat(), leaseOut]);
      if (lease === "held") lastHeld = Date.now();
      else if (lease === "out") r.why = away;
      else r.why = lease === "cancelled" ? "the task was cancelled" : "another attempt took the task";
    } catch {
      // The queue is away (a restart, a partition): past the lease, another executor may hold the task.
      if (Date.now() - lastHeld > queue.leaseMs) r.why = away;
    } finally {
      clearTimeout(timer);
    }
    if (r.why) r.abort.abort();
  }
}

export async function runExecutor(ctx: SpotContext, options: ExecutorOptions) {
  const name = options.name ?? hostName();
  if (!EXECUTOR_NAME.test(name)) {
    throw new SpotError(
      "CLI_USAGE",
      `Cannot use "${name}" as an executor name: letters, digits, _ and - only`,
    );
  }
  const capacity = options.capacity ?? ctx.config.maxConcurrentRuns;
  const lock = await holdExecutorLock(ctx);
  const queue = await openQueue(ctx.config.queue, {
    client: `spot executor ${name}`,
    doing: "start an executor",
  });
  const running = new Map<string, Running>();
  // A claim waiting on a server that is away gives up when the executor is told to drain or stop.
  const leaving = AbortSignal.any([options.drain, options.stop]);
  let done = 0;
  try {
    const fit = await executorFit(ctx, options.profiles);
    const discarded = await discardLeftovers(ctx);
    const beatMs = Math.max(250, Math.min(1_000, queue.leaseMs / 3));
    const startedAt = ctx.now();
    const record = (state: ExecutorRecord["state"]): ExecutorRecord => ({
      name,
      host: hostName(),
      pid: Deno.pid,
      capacity,
      profiles: [...fit.profiles],
      sandbox: fit.sandbox,
      state,
      startedAt,
      heartbeatAt: ctx.now(),
      running: [...running.values()].map((r) => ({
        taskId: r.claim.item.taskId,
        runId: r.claim.item.origin.runId,
        attempt: r.claim.attempt,
        since: r.since,
      })),
      done,
      heartbeatSeconds: beatMs / 1000,
    });
    const announce = (state: ExecutorRecord["state"]) =>
      queue.executors.announce(record(state)).catch(() => {});
    await announce("ready");
    ctx.progress?.(
      `executor ${name}: ready on ${queue.where}, capacity ${capacity}, profiles ${fit.profiles.join(", ")}`,
    );
    const beat = setInterval(() => void announce(options.drain.aborted ? "draining" : "ready"), beatMs);
    const stopAll = () => {
      for (const r of running.values()) {
        r.why ||= "the executor stopped";
        r.abort.abort();
      }
    };
    options.stop.addEventListener("abort", stopAll, { once: true });
    try {
      while (!options.drain.aborted && !options.stop.aborted) {
        if (running.size >= capacity) {
          await Promise.race([...[...running.values()].map((r) => r.done), aborted(options.drain)]);
          continue;
        }
        const claim = await queue.claim(name, fit, { waitMs: CLAIM_WAIT_MS, signal: leaving })
          .catch((error) => {
            ctx.progress?.(`executor ${name}: ${(error as Error).message}`);
            return null;
          });
        if (!claim) continue;
        if (options.drain.aborted || options.stop.aborted) {
          await claim.release("the executor is stopping");
          break;
        }
        const r: Running = {
          claim,
          since: ctx.now(),
          abort: new AbortController(),
          why: "",
          done: Promise.resolve(),
        };
        const key = `${claim.item.taskId}#${claim.attempt}`;
        running.set(key, r);
        const watching = guard(queue, r, beatMs);
        r.done = executeAttempt(ctx, queue, {
          claim,
          host: hostName(),
          signal: r.abort.signal,
          why: () => r.why,
        })
          .then(async (outcome) => {
            if (outcome.kind === "aborted" && r.why === "the executor stopped") {
              await within(claim.release("the executor stopped"), LEAVE_MS);
            }
            if (outcome.kind === "completed") done++;
            options.onOutcome?.(claim.item.taskId, outcome);
          })
          .finally(() => {
            r.abort.abort();
            running.delete(key);
            void watching;
          });
      }
      // Draining: what runs may finish within the grace; then it is given back.
      const grace = setTimeout(stopAll, (options.drainSeconds ?? 600) * 1000);
      await Promise.all([...running.values()].map((r) => r.done));
      clearTimeout(grace);
    } finally {
      clearInterval(beat);
      options.stop.removeEventListener("abort", stopAll);
    }
    await within(announce("stopped"), LEAVE_MS);
    return { executor: name, where: queue.where, done, discardedLeftovers: discarded };
  } finally {
    await within(queue.close(), LEAVE_MS);
    lock.close();
  }
}

/** `p`, or nothing once `ms` passed: a server that is away must not hold up an executor told to stop. */
async function within(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p.catch(() => {}), new Promise<void>((r) => timer = setTimeout(r, ms))]);
  clearTimeout(timer);
}

const aborted = (signal: AbortSignal) =>
  new Promise<void>((r) =>
    signal.aborted ? r() : signal.addEventListener("abort", () => r(), { once: true })
  );
