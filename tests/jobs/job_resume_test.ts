/**
 * kill -9 of a job's coordinator mid-graph, then `spot job resume`: the graph finishes and no task's worker is
 * launched twice. A builder whose turn had ended (its checks were running) is judged from its run; a scout
 * whose worker was mid-turn is uncertain: it fails with that reason and is not launched again; the tasks after
 * the builder run as usual.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { processAlive } from "../../sandbox/spawn.ts";
import type { JobState } from "../../graphs/store.ts";
import { spot } from "../helpers.ts";
import { approve, code, episode, init, replay, result, setup, task, write } from "./helpers.ts";

const brief = result({ summary: "found", brief: "x lives in api/x.ts" });

async function events(stateDir: string, runId: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(join(stateDir, "runs", runId, "events.jsonl")).catch(() => "");
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

async function until(what: string, ok: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

Deno.test("job resume: after kill -9 of the coordinator the graph finishes and no worker is launched twice", async () => {
  const { env, repo } = await setup();
  const hold = join(env.dir, "hold");
  await Deno.writeTextFile(hold, "");
  const created = await init(env, repo, {
    allowWrites: true,
    tasks: [
      task("a", "scout", { model: replay(await episode(env.dir, "a", [brief])) }),
      task("b", "builder", {
        after: ["a"],
        ownership: ["api"],
        // Its check waits while the hold file exists: the coordinator is killed during it.
        checks: [{
          id: "x",
          argv: ["sh", "-c", `while [ -e '${hold}' ]; do sleep 0.1; done; grep -q 'x = 2' api/x.ts`],
        }],
        model: replay(
          await episode(env.dir, "b", [
            write("api/x.ts", "export const x = 2;\n"),
            result({ summary: "x is 2", changedFiles: ["api/x.ts"] }),
          ]),
        ),
      }),
      task("c", "scout", {
        after: ["a"],
        model: replay(await episode(env.dir, "c", [{ op: "sleep", ms: 30_000 }, brief])),
      }),
      task("r", "reviewer", {
        after: ["b"],
        reviewOf: "b",
        model: replay(await episode(env.dir, "r", [approve("b")])),
      }),
    ],
  });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const run = (id: string) => `${jobId}.${id}`;
  const leftovers: number[] = [];
  try {
    const started = await spot(env, repo, "job", "start", jobId);
    assert.equal(started.code, 0, started.stderr);
    const pid = Number(started.json.pid);
    // The builder's checks are running and the scout's worker is mid-turn.
    await until("b's checks and c's worker", async () => {
      const b = await events(env.stateDir, run("b"));
      const c = await events(env.stateDir, run("c"));
      return b.some((e) => e.type === "step_start" && e.step !== "worker") &&
        c.some((e) => e.type === "worker_start");
    });
    Deno.kill(pid, "SIGKILL");
    await until("the coordinator to die", () => Promise.resolve(!processAlive(pid)), 10_000);
    for (const id of ["b", "c"]) {
      for (const e of await events(env.stateDir, run(id))) {
        if (e.type === "step_start") leftovers.push(Number(e.pid));
      }
    }
    await Deno.remove(hold);

    const resumed = await spot(env, repo, "job", "resume", jobId);
    assert.equal(resumed.code, 0, resumed.stderr);
    const done = await spot(env, repo, "job", "wait", jobId, "--timeout-ms", "120000");
    assert.equal(code(done), "JOB_FAILED", done.stdout + done.stderr);
    const state = JSON.parse(
      await Deno.readTextFile(join(env.stateDir, "jobs", jobId, "state.json")),
    ) as JobState;
    assert.equal(state.tasks.a.state, "succeeded");
    assert.equal(state.tasks.b.state, "succeeded", state.tasks.b.reason);
    assert.ok(state.tasks.b.fingerprint, "judged, with its fingerprint");
    assert.equal(state.tasks.r.state, "succeeded", state.tasks.r.reason);
    assert.equal(state.tasks.c.state, "failed");
    assert.match(
      state.tasks.c.reason!,
      /^uncertain: its worker was running when the coordinator stopped; it is not launched again$/,
    );
    for (const id of ["a", "b", "c", "r"]) {
      const starts = (await events(env.stateDir, run(id))).filter((e) =>
        e.type === "worker_start" && e.phase === "run"
      );
      assert.equal(starts.length, 1, `task ${id} launched once`);
    }
    const jobEvents = (await Deno.readTextFile(join(env.stateDir, "jobs", jobId, "events.jsonl"))).split("\n")
      .filter(Boolean).map((l) => JSON.parse(l));
    for (const id of ["a", "b", "c", "r"]) {
      const launches = jobEvents.filter((e) => e.type === "task" && e.id === id && e.state === "running");
      assert.equal(launches.length, 1, `task ${id} started once in the job's events`);
    }
  } finally {
    // The dead coordinator's steps: started on this test's behalf, ended by their recorded pids.
    for (const p of leftovers) {
      try {
        Deno.kill(-p, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
    await Deno.remove(env.dir, { recursive: true });
  }
});
