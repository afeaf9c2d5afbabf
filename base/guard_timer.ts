/**
 * Timers that bound another wait (a child's exit, a pipe's drain, a watch while a step runs) and never keep
 * the process alive themselves. They are built on `Atomics.waitAsync` (a timed wait on a private cell,
 * cancelled by notifying it), not on `setTimeout`: Deno defines the timer globals lazily, and the first touch
 * of any of them in a process loads Node's timers (~6 ms), which every verb and step paid on its first child
 * (docs/performance.md). A guard fires only while something else keeps the event loop running (the child,
 * the pipe, the step it bounds): it is never a way to sleep.
 */

/** Stops a guard; stopping one that fired or was stopped is harmless. */
export type StopGuard = () => void;

/** Runs `fn` once after `ms`, unless stopped first. */
export function guardAfter(ms: number, fn: () => void): StopGuard {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  let stopped = false;
  const fire = (outcome: string) => {
    if (outcome === "timed-out" && !stopped) {
      stopped = true;
      fn();
    }
  };
  const wait = Atomics.waitAsync(cell, 0, 0, Math.max(0, ms));
  if (wait.async) void wait.value.then(fire);
  else queueMicrotask(() => fire(wait.value));
  return () => {
    if (stopped) return;
    stopped = true;
    Atomics.notify(cell, 0);
  };
}

/** Runs `fn` every `ms` (the next period starts when `fn` returns), until stopped. */
export function guardEvery(ms: number, fn: () => void): StopGuard {
  let stopped = false;
  let current: StopGuard = () => {};
  const arm = () => {
    current = guardAfter(ms, () => {
      if (stopped) return;
      try {
        fn();
      } finally {
        if (!stopped) arm();
      }
    });
  };
  arm();
  return () => {
    stopped = true;
    current();
  };
}
