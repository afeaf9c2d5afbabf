/**
 * The no-progress watchdog through the real loop, with the replay worker: a
 * silent worker is killed within the idle limit plus five seconds and leaves
 * no process; a worker that prints nothing but keeps changing files in its
 * worktree is left alone; the same activity outside the worktree is not
 * progress.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { survivors } from "./conformance/processes.ts";
import { spot, spotEnv } from "./helpers.ts";
import { demoScenario } from "./scenario.ts";

const IDLE_SECONDS = 3;

interface Event {
  type: string;
  at: string;
  step?: string;
}

async function runEpisode(episode: Record<string, unknown>[], config: Record<string, unknown> = {}) {
  const env = await spotEnv({
    limits: { workerIdleSeconds: IDLE_SECONDS, workerTimeoutSeconds: 60 },
    ...config,
  });
  const sc = await demoScenario(env.dir, episode);
  const prepared = await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    sc.taskFile,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
  );
  const id = String(prepared.json.runId);
  const run = await spot(env, sc.repo, "run", "--id", id);
  const runDir = join(env.stateDir, "runs", id);
  const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  const events = (await Deno.readTextFile(join(runDir, "events.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l) as Event
  );
  return { env, run, state, events, runDir };
}

/** Seconds from each worker step's last event to its end. */
function silences(events: Event[]): number[] {
  const out: number[] = [];
  let last = 0;
  for (const e of events) {
    const at = Date.parse(e.at);
    if (e.type === "step_start" && e.step === "worker") last = at;
    else if (e.type.startsWith("worker_")) last = Math.max(last, at);
    else if (e.type === "step_end" && e.step === "worker") out.push((at - last) / 1000);
  }
  return out;
}

Deno.test("a worker that goes silent is killed within the idle limit plus 5 s as no_progress, leaving no process", async () => {
  const { env, run, state, events, runDir } = await runEpisode([
    { op: "say", text: "thinking hard" },
    { op: "exec", argv: ["sh", "-c", "sleep 300 & sleep 300"] },
  ]);
  try {
    assert.equal(run.code, 3, run.stderr);
    assert.equal(state.failure.code, "no_progress");
    assert.match(state.failure.message, /no progress .* for 3s/);
    const quiet = silences(events);
    assert.equal(quiet.length, 2, "no_progress is transient: one retry");
    for (const s of quiet) {
      assert.ok(s >= IDLE_SECONDS && s <= IDLE_SECONDS + 5, `killed ${s}s after the last event`);
    }
    assert.deepEqual(survivors(join(runDir, "homes")), []);
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});

Deno.test("a worker that prints nothing but keeps changing files in its worktree is not killed", async () => {
  const { env, run, state } = await runEpisode([
    { op: "exec", argv: ["sh", "-c", "for i in 1 2 3 4 5 6 7; do echo $i >> progress.txt; sleep 1; done"] },
    { op: "say", text: "done" },
  ]);
  try {
    assert.equal(run.code, 0, run.stderr);
    assert.equal(state.status, "verifying");
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});

Deno.test("the same file activity outside the worktree is not progress", async () => {
  const outside = await Deno.makeTempDir({ prefix: "spot-outside-" });
  const { env, run, state } = await runEpisode([
    {
      op: "exec",
      argv: ["sh", "-c", `for i in 1 2 3 4 5 6 7; do echo $i >> '${outside}/progress.txt'; sleep 1; done`],
    },
    { op: "say", text: "done" },
  ]);
  try {
    assert.equal(run.code, 3, run.stderr);
    assert.equal(state.failure.code, "no_progress");
  } finally {
    await Deno.remove(env.dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("without an OS sandbox, a process the worker daemonized out of its group is ended with the launch", async () => {
  // Under bwrap the PID namespace takes such a process down; without one, spot as its subreaper does.
  const { env, run, runDir, events } = await runEpisode([
    { op: "exec", argv: ["sh", "-c", "setsid sleep 300 > /dev/null 2>&1 < /dev/null &"] },
    { op: "sleep", ms: 300 },
    { op: "say", text: "done" },
  ], { sandbox: "none" });
  try {
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(survivors(join(runDir, "homes")), []);
    assert.ok(
      events.some((e) =>
        e.type === "note" && /left outside its group/.test((e as { message?: string }).message ?? "")
      ),
      "the sweep is recorded",
    );
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});

Deno.test("a profile's own idle limit overrides the global one", async () => {
  const env = await spotEnv({
    limits: { workerIdleSeconds: 600, workerTimeoutSeconds: 600 },
    profiles: {
      quick: { adapter: "replay", provider: "replay", model: "unused", limits: { workerIdleSeconds: 2 } },
    },
  });
  const sc = await demoScenario(env.dir, [{ op: "say", text: "hm" }, { op: "sleep", ms: 120_000 }]);
  try {
    const prepared = await spot(
      env,
      sc.repo,
      "prepare",
      "--task",
      sc.taskFile,
      "--profile",
      "quick",
      "--model",
      sc.episodeFile,
    );
    const started = Date.now();
    const run = await spot(env, sc.repo, "run", "--id", String(prepared.json.runId));
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /no progress .* for 2s/);
    assert.ok(Date.now() - started < 30_000, "the global 600 s limit was used");
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});
