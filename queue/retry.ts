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

export async function retrying<T>(
  what: string,
  fn: () => Promise<T>,
  options: { patienceMs?: number; signal?: AbortSignal; where?: string } = {},
): Promise<T> {
  const until = Date.now() + (options.patienceMs ?? PATIENCE_MS);
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (isConflict(error)) throw new KvConflict((error as Error).message);
      if (options.signal?.aborted || Date.now() + pause > until || isRefusal(error)) {
        const message = error instanceof Error ? error.message : String(error);
        throw new SpotError(
          "QUEUE_UNAVAILABLE",
          `Cannot ${what}: the queue${
            options.where ? ` at ${options.where}` : ""
          } did not answer: ${message}`,
          { details: { where: options.where, cause: message } },
        );
      }
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }
}
