import assert from "node:assert/strict";
import { join } from "node:path";
import { guardAfter, guardEvery } from "./guard_timer.ts";
import { spawnProcess } from "../sandbox/spawn.ts";
import { ROOT } from "../tests/helpers.ts";

/** A child that keeps the event loop running for `seconds`, as the waits guards bound do. */
async function whileChildRuns(seconds: number): Promise<void> {
  await new Deno.Command("sleep", { args: [String(seconds)], stdout: "null", stderr: "null" }).spawn().status;
}

Deno.test("guardAfter fires once after its time while something else keeps the process alive", async () => {
  const fired: number[] = [];
  const started = performance.now();
  guardAfter(100, () => fired.push(performance.now() - started));
  await whileChildRuns(0.4);
  assert.equal(fired.length, 1);
  assert.ok(fired[0] >= 95 && fired[0] < 350, `fired at ${fired[0]} ms`);
});

Deno.test("a stopped guard never fires, and stopping twice is harmless", async () => {
  let fired = false;
  const stop = guardAfter(50, () => fired = true);
  stop();
  stop();
  await whileChildRuns(0.2);
  assert.equal(fired, false);
});

Deno.test("guardAfter with no time left fires on the next microtask turn, not synchronously", async () => {
  let fired = false;
  guardAfter(0, () => fired = true);
  assert.equal(fired, false);
  await whileChildRuns(0.05);
  assert.equal(fired, true);
});

Deno.test("guardEvery ticks until stopped, and goes on after a tick that throws", async () => {
  let ticks = 0;
  const stop = guardEvery(40, () => {
    ticks++;
    if (ticks === 1) throw new Error("a bad tick");
  });
  const errors: unknown[] = [];
  const onError = (e: ErrorEvent) => {
    errors.push(e.error);
    e.preventDefault();
  };
  globalThis.addEventListener("error", onError);
  const unhandled = (e: PromiseRejectionEvent) => {
    errors.push(e.reason);
    e.preventDefault();
  };
  globalThis.addEventListener("unhandledrejection", unhandled);
  try {
    await whileChildRuns(0.35);
    stop();
    const atStop = ticks;
    assert.ok(atStop >= 3, `ticked ${atStop} times in 350 ms`);
    await whileChildRuns(0.15);
    assert.equal(ticks, atStop, "a stopped guardEvery ticked again");
  } finally {
    globalThis.removeEventListener("error", onError);
    globalThis.removeEventListener("unhandledrejection", unhandled);
  }
});

Deno.test("a pending guard does not keep a process alive (a timer would, for its whole time)", async () => {
  const script = (timer: string) =>
    `import { guardAfter } from ${JSON.stringify(join(ROOT, "base", "guard_timer.ts"))};\n` +
    `${timer};\nconsole.log("ended");\n`;
  const run = async (timer: string) => {
    const started = performance.now();
    const r = await spawnProcess(
      [Deno.execPath(), "eval", "--no-config", script(timer)],
      { env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" }, timeoutMs: 20_000 },
    );
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout.trim(), "ended");
    return performance.now() - started;
  };
  const guarded = await run(`guardAfter(5000, () => console.log("fired"))`);
  assert.ok(guarded < 3000, `a process with a pending guard took ${guarded} ms to end`);
  // The same wait as a plain timer holds the process for the whole 5 s: what the guard is not.
  const timed = await run(`setTimeout(() => {}, 5000)`);
  assert.ok(timed >= 4900, `a pending setTimeout let the process end after ${timed} ms`);
});
