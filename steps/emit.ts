/** Writes protocol messages on stdout; a parent that went away ends the step. */
import { guardEvery } from "../base/guard_timer.ts";
import type { StepMessage } from "./protocol.ts";

const encoder = new TextEncoder();

/** Returns false when the parent can no longer read us. */
export function emit(message: StepMessage): boolean {
  const bytes = encoder.encode(JSON.stringify(message) + "\n");
  try {
    let written = 0;
    while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
    return true;
  } catch {
    return false;
  }
}

/**
 * Calls `onOrphaned` once if our parent dies (we get re-parented), looking while the step has work under way
 * (a guard: it never keeps the step alive by itself).
 */
export function watchParent(onOrphaned: () => void, everyMs = 500): () => void {
  const original = Deno.ppid;
  const stop = guardEvery(everyMs, () => {
    if (Deno.ppid !== original) {
      stop();
      onOrphaned();
    }
  });
  return stop;
}
