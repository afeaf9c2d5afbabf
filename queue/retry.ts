/**
 * Every call to the server goes through `retrying`: a server restart or a dropped connection makes a call throw
 * (and an unwrapped executor crash, as measured on the probe, docs/fleet.md), while the client reconnects on its
 * own. A call is tried again with a growing pause until it answers or the patience runs out; then the queue is
 * unavailable, with the last error. A compare-and-set conflict is an answer, not an outage: it is never retried
 * here.
 */
import { SpotError } from "../errors.ts";
import { KvConflict } from "./types.ts";

/** Long enough to ride out a server restart (a few seconds) with room; short enough that a dead server is said. */
export const PATIENCE_MS = 60_000;
const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 2_000;

/** The server's answer to a compare-and-set on a key that moved (JetStream's "wrong last sequence"). */
export function isConflict(error: unknown): boolean {
  if (error instanceof KvConflict) return true;
  const e = error as { message?: string; code?: unknown; api_error?: { err_code?: number } } | null;
  return /wrong last sequence|key exists/i.test(e?.message ?? "") || e?.api_error?.err_code === 10071 ||
    e?.code === 10071;
}

/** Answers no retry changes: JetStream off, or the credentials not allowed to do it. */
function isRefusal(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /jetstream not enabled|not enabled for account|authorization violation|permissions violation/i.test(
    message,
  );
}

/**
 * `fn` tried until it answers. `signal` is looked at before each try and ends the pause between tries at once:
 * an attempt that is cancelled must not wait out the patience. A try under way runs to its answer or its
 * timeout (a claim's answer must not be dropped); `abortable` ends one at once where dropping it is harmless.
 */
export async function retrying<T>(
  what: string,
  fn: () => Promise<T>,
  options: { patienceMs?: number; signal?: AbortSignal; where?: string } = {},
): Promise<T> {
  const until = Date.now() + (options.patienceMs ?? PATIENCE_MS);
  const { signal } = options;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      stopIfAborted(what, signal);
      return await fn();
    } catch (error) {
      if (isConflict(error)) throw new KvConflict((error as Error).message);
      stopIfAborted(what, signal);
      if (Date.now() + pause > until || isRefusal(error)) {
        const message = error instanceof Error ? error.message : String(error);
        throw new SpotError(
          "QUEUE_UNAVAILABLE",
          `Cannot ${what}: the queue${
            options.where ? ` at ${options.where}` : ""
          } did not answer: ${message}`,
          { details: { where: options.where, cause: message } },
        );
      }
      await pauseFor(pause, signal);
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }
}

function stopIfAborted(what: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new SpotError("CANCELLED", `Cannot ${what}: it was cancelled`);
}

/** `p`, or a CANCELLED refusal as soon as `signal` aborts (what `p` still does is left to finish unread). */
export function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (!signal) return p;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new SpotError("CANCELLED", `Cannot ${what}: it was cancelled`));
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Rejects when `p` has not settled within `ms`: a download whose stream stopped delivering (the server's
 * consumer stalled) becomes an error that `retrying` answers with a fresh try, instead of a wait with no end.
 */
export function orStalled<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stall = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing came for ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, stall]).finally(() => clearTimeout(timer));
}

function pauseFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => (clearTimeout(timer), signal?.removeEventListener("abort", done), resolve());
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
