/**
 * Steps started before their work is ready (isolation/step_runner.ts `startStep`, docs/performance.md): the
 * step waits for its spec on stdin, its time counts from the spec, a step given up does nothing and leaves
 * nothing, a step does only work that fits the permissions it started with, and one whose spot dies before
 * sending a spec ends by itself.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createContext } from "../config/context.ts";
import { processAlive, spawnProcess } from "../sandbox/spawn.ts";
import { which } from "../sandbox/which.ts";
import type { StepMessage } from "../steps/protocol.ts";
import type { SpotContext } from "../store/context.ts";
import { ROOT, spotEnv } from "../tests/helpers.ts";
import { runStarted, startStep, type StepStart } from "../isolation/step_runner.ts";

const GIT = which("git", Deno.env.get("PATH") ?? "/usr/bin:/bin")!;
const RUN_ID = "run-20261202-000000-abcdef";

interface Scene {
  ctx: SpotContext;
  dir: string;
  env: Record<string, string>;
  done: () => Promise<void>;
}

async function scene(): Promise<Scene> {
  const e = await spotEnv();
  const ctx = await createContext({ env: (k) => e.env[k] });
  const dir = ctx.store.dir(RUN_ID);
  await Deno.mkdir(dir, { recursive: true });
  return { ctx, dir, env: e.env, done: () => Deno.remove(e.dir, { recursive: true }) };
}

function verifyStart(dir: string, run = [GIT]): StepStart {
  return {
    kind: "verify",
    runId: RUN_ID,
    policy: { read: [dir], write: [], run, env: ["PATH"], net: [] },
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
  };
}

const gitVersion = (dir: string) => ({
  cwd: dir,
  commands: [{ argv: [GIT, "--version"], timeoutSeconds: 30, env: {}, passEnv: ["PATH"] }],
  maxChars: 10_000,
});

/** The started step's pid, once its active record names it. */
async function stepPid(dir: string): Promise<number> {
  let pid = 0;
  await waitFor("the step's active record", () => {
    try {
      pid = JSON.parse(Deno.readTextFileSync(join(dir, "active-step.json"))).pid;
    } catch {
      // Not written yet.
    }
    return pid > 0;
  });
  return pid;
}

async function waitFor(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const lines = (path: string): Record<string, unknown>[] => {
  try {
    return Deno.readTextFileSync(path).trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return [];
  }
};

Deno.test("a started step waits for its spec, runs it, and its time counts from the spec", async () => {
  const { ctx, dir, done } = await scene();
  try {
    const started = await startStep(ctx, verifyStart(dir));
    const pid = await stepPid(dir);
    // Spot's own work before the spec (building a tree): the step waits, alive, and is not timed out for it.
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.ok(processAlive(pid), "a started step ended before its spec");
    const messages: StepMessage[] = [];
    const outcome = await started.run({
      spec: gitVersion(dir),
      timeoutMs: 500,
      onMessage: (m) => void messages.push(m),
    });
    assert.equal(outcome.result.timedOut, false);
    assert.ok(outcome.result.durationMs < 600, `duration ${outcome.result.durationMs} ms counts the wait`);
    const command = messages.find((m) => m.t === "command");
    assert.equal(command?.t === "command" && command.exitCode, 0);
    const steps = lines(join(dir, "steps.jsonl"));
    assert.equal(steps.length, 1);
    assert.equal(steps[0].pid, pid);
    assert.deepEqual(lines(join(dir, "events.jsonl")).map((e) => e.type), ["step_start", "step_end"]);
    assert.throws(() => Deno.statSync(join(dir, "active-step.json")));
    await started.cancel(); // after run: nothing
    await assert.rejects(() => started.run({ spec: gitVersion(dir), timeoutMs: 500, onMessage: () => {} }));
  } finally {
    await done();
  }
});

Deno.test("a step given up before its spec ends at once, ran nothing, and leaves no record", async () => {
  const { ctx, dir, done } = await scene();
  try {
    const started = await startStep(ctx, verifyStart(dir));
    const pid = await stepPid(dir);
    await started.cancel();
    await started.cancel();
    assert.equal(processAlive(pid), false);
    assert.deepEqual(lines(join(dir, "steps.jsonl")), []);
    assert.deepEqual(lines(join(dir, "events.jsonl")), []);
    assert.throws(() => Deno.statSync(join(dir, "active-step.json")));
  } finally {
    await done();
  }
});

Deno.test("runStarted uses a started step only for work that needs exactly its start", async () => {
  const { ctx, dir, done } = await scene();
  try {
    const work = { spec: gitVersion(dir), timeoutMs: 30_000, onMessage: () => {} };
    // The same start: the started step does the work.
    const same = await startStep(ctx, verifyStart(dir));
    const samePid = await stepPid(dir);
    const used = await runStarted(ctx, same, { ...verifyStart(dir), ...work });
    assert.equal(used.result.pid, samePid);
    // Work that needs one more program than the step was started with: a new step, the started one given up.
    const narrow = await startStep(ctx, verifyStart(dir));
    const narrowPid = await stepPid(dir);
    const wider = await runStarted(ctx, narrow, { ...verifyStart(dir, [GIT, "/bin/true"]), ...work });
    assert.notEqual(wider.result.pid, narrowPid);
    assert.equal(processAlive(narrowPid), false);
    assert.match(wider.result.stdout, /"exitCode":0/);
    // A different environment does not fit either.
    const other = await startStep(ctx, verifyStart(dir));
    assert.equal(other.fits({ ...verifyStart(dir), env: { PATH: "/elsewhere" } }), false);
    assert.equal(other.fits(verifyStart(dir)), true);
    await other.cancel();
    assert.equal(other.fits(verifyStart(dir)), false);
  } finally {
    await done();
  }
});

Deno.test("a started step ends by itself when spot dies before sending its spec", async () => {
  const { dir, env, done } = await scene();
  try {
    const script = `
      import { createContext } from ${JSON.stringify(join(ROOT, "config", "context.ts"))};
      import { startStep } from ${JSON.stringify(join(ROOT, "isolation", "step_runner.ts"))};
      const ctx = await createContext({ env: (k) => Deno.env.get(k) });
      await startStep(ctx, ${JSON.stringify(verifyStart(dir))});
      for (let i = 0; i < 200; i++) {
        try { console.log(JSON.parse(Deno.readTextFileSync(${
      JSON.stringify(join(dir, "active-step.json"))
    })).pid); break; }
        catch { await new Promise((r) => setTimeout(r, 25)); }
      }
      Deno.exit(0);
    `;
    const r = await spawnProcess([Deno.execPath(), "eval", "--no-config", script], {
      env,
      timeoutMs: 30_000,
      reapGroup: false,
    });
    assert.equal(r.exitCode, 0, r.stderr);
    const pid = Number(r.stdout.trim());
    assert.ok(pid > 0, `no step pid: ${r.stdout} ${r.stderr}`);
    await waitFor("the orphaned step to end", () => !processAlive(pid));
  } finally {
    await done();
  }
});
