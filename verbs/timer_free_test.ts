/**
 * The loop's processes never touch Deno's timer globals (docs/performance.md, issue 30): the first touch of
 * `setTimeout`, `setInterval` or their `clear` pair loads Node's timers, ~6 ms in every verb and step that
 * does it. Bounds on waits are guards (base/guard_timer.ts). Each process here runs with a preload that
 * reports any touch of those globals, with where it came from.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../sandbox/spawn.ts";
import { makeRepo, ROOT, spotEnv, writeEpisode, writeJson } from "../tests/helpers.ts";

const TRAP = `for (const name of ["setTimeout", "setInterval", "clearTimeout", "clearInterval"]) {
  const own = Object.getOwnPropertyDescriptor(globalThis, name);
  let told = false;
  Object.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: true,
    get() {
      if (!told) {
        told = true;
        console.error("TIMER-GLOBAL " + name + "\\n" + new Error().stack.split("\\n").slice(2, 8).join("\\n"));
      }
      return own.get ? own.get.call(globalThis) : own.value;
    },
    set(v) { own.set?.call(globalThis, v); },
  });
}
`;

async function trapFile(dir: string): Promise<string> {
  const path = join(dir, "timer_trap.js");
  await Deno.writeTextFile(path, TRAP);
  return path;
}

/** Runs a Deno program under the trap; returns its result with the trap's reports, if any. */
async function underTrap(
  trap: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  stdinText?: string,
) {
  const r = await spawnProcess(
    [Deno.execPath(), "run", "--no-prompt", "--allow-all", "--preload", trap, ...args],
    { cwd, env, timeoutMs: 120_000, stdinText },
  );
  const touched = r.stderr.split("\n").filter((l) => l.startsWith("TIMER-GLOBAL")).length > 0;
  return { ...r, touched };
}

Deno.test("the loop's five verbs run without touching a timer global", async () => {
  const e = await spotEnv({ selfReview: { enabled: false } });
  try {
    const trap = await trapFile(e.dir);
    const repo = await makeRepo({ "src/sum.js": "export const sum = (a, b) => a - b;\n" }, e.dir);
    const episode = join(e.dir, "fix.jsonl");
    await writeEpisode(episode, [{
      op: "write",
      path: "src/sum.js",
      content: "export const sum = (a, b) => a + b;\n",
    }]);
    const task = join(e.dir, "task.json");
    await writeJson(task, {
      schemaVersion: 1,
      goal: "Make sum add",
      allowedPaths: ["src/**"],
      acceptanceCriteria: ["sum adds"],
      verification: [{ argv: ["git", "--version"], timeoutSeconds: 30 }],
      risk: "low",
    });
    const verb = async (...args: string[]) => {
      const r = await underTrap(
        trap,
        ["--config", join(ROOT, "deno.json"), join(ROOT, "cli.ts"), ...args],
        repo,
        e.env,
      );
      assert.equal(r.exitCode, 0, `spot ${args[0]}: ${r.stderr}`);
      assert.equal(r.touched, false, `spot ${args[0]} touched a timer global:\n${r.stderr}`);
      return JSON.parse(r.stdout) as Record<string, unknown>;
    };
    const { runId } = await verb("prepare", "--task", task, "--profile", "replay", "--model", episode) as {
      runId: string;
    };
    await verb("run", "--id", runId);
    const verified = await verb("verify", "--id", runId);
    const review = join(e.dir, "review.json");
    await writeJson(review, {
      schemaVersion: 1,
      verdict: "approve",
      diffSha256: verified.diffSha256,
      findings: [],
      verificationGaps: [],
      summary: "adds",
    });
    await verb("approve", "--id", runId, "--review", review, "--message", "Make sum add");
    const landed = await verb("integrate", "--id", runId);
    assert.equal(landed.status, "integrated");
  } finally {
    await Deno.remove(e.dir, { recursive: true });
  }
});

Deno.test("the worker and verify step programs run without touching a timer global", async () => {
  const dir = await Deno.makeTempDir({ prefix: "spot-timer-free-" });
  try {
    const trap = await trapFile(dir);
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
    const verifySpec = JSON.stringify({
      cwd: dir,
      commands: [{ argv: ["git", "--version"], timeoutSeconds: 30, env: {}, passEnv: ["PATH"] }],
      maxChars: 10_000,
    });
    const verify = await underTrap(trap, [join(ROOT, "steps", "verify_step.ts")], dir, env, verifySpec);
    assert.equal(verify.exitCode, 0, verify.stderr);
    assert.match(verify.stdout, /"t":"command".*"exitCode":0/);
    assert.equal(verify.touched, false, `the verify step touched a timer global:\n${verify.stderr}`);

    const workerSpec = JSON.stringify({
      argv: ["git", "--version"],
      cwd: dir,
      envNames: ["PATH"],
      timeoutMs: 30_000,
      idleMs: 30_000,
      rawStreamFile: join(dir, "raw.jsonl"),
    });
    const worker = await underTrap(trap, [join(ROOT, "steps", "worker_step.ts")], dir, env, workerSpec);
    assert.equal(worker.exitCode, 0, worker.stderr);
    assert.match(worker.stdout, /"t":"exit","exitCode":0/);
    assert.equal(worker.touched, false, `the worker step touched a timer global:\n${worker.stderr}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
