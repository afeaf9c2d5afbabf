/**
 * docs/fleet.md's failures, each made to happen during one job of twelve tasks (eleven builders and a reviewer)
 * on three executors with their own state, cache, config and HOME, over a loopback nats-server with a 3-second
 * lease:
 *
 * - the NATS server restarts while the first builders run;
 * - an executor is killed (-9) while a worker's turn is under way (a gated builder, `b0`);
 * - an executor is killed (-9) after a builder's checks ran, before it published or completed the task (`b1`):
 *   it is stopped while the check waits at its gate, the check then ends, and the executor is killed;
 * - an executor is paused (SIGSTOP: a partition) while it holds a worker's turn (`b2`), resumed after another
 *   executor finished the task;
 * - an executor is paused (as for `b1`) while a builder's check runs (`b3`), the check ends, and it is resumed
 *   after another executor finished the task: it returns late, and its result is not taken.
 *
 * Every task is taken over once and integrated once; the killed executors, started again, discard what their
 * dead attempts left; the paused ones stop their stale attempts (lease lost) or have them refused.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openNatsQueue } from "../../queue/nats.ts";
import type { TaskStatus } from "../../queue/item.ts";
import type { Queue } from "../../queue/types.ts";
import { QueueConfig } from "../../schemas/config.ts";
import {
  type Machine,
  machine,
  originDashboard,
  type RunningExecutor,
  startExecutor,
  stopExecutor,
  until,
} from "./fleet_helpers.ts";
import {
  assertOnceAndIntegrate,
  createJob,
  jobRepo,
  startJob,
  stopCoordinator,
  waitJob,
} from "./fleet_job.ts";
import { startNats } from "./nats_server.ts";

const GATED = ["b0", "b1", "b2", "b3"];
/** Builders whose check waits at a gate of its own, so the test can stop its executor right there. */
const CHECK_GATED = ["b1", "b3"];

interface Fleet {
  machines: Map<string, Machine>;
  running: Map<string, RunningExecutor>;
  /** Every executor process started, the killed ones too. */
  all: RunningExecutor[];
}

async function restart(fleet: Fleet, name: string): Promise<void> {
  const e = await startExecutor(fleet.machines.get(name)!, ["--capacity", "2"]);
  fleet.running.set(name, e);
  fleet.all.push(e);
}

Deno.test({
  name: "fleet failures: kill -9 mid-turn and after verification, a server restart, a partition and a late " +
    "result; twelve tasks each taken over and integrated once",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const nats = await startNats();
    const fleet: Fleet = { machines: new Map(), running: new Map(), all: [] };
    let queue: Queue | null = null;
    let owner: Machine | null = null;
    let jobId = "";
    try {
      const origin = owner = await machine("origin", nats.url, { maxConcurrentRuns: 16 });
      for (const name of ["e1", "e2", "e3"]) {
        fleet.machines.set(name, await machine(name, nats.url));
        await restart(fleet, name);
      }
      queue = await openNatsQueue(QueueConfig.parse({ backend: "nats", url: nats.url }), { client: "test" });
      const q = queue;
      const started = join(origin.dir, "started.log");
      const hold = (id: string) => join(origin.dir, `hold-${id}`);
      const checked = join(origin.dir, "checked.log");
      const checkHold = (id: string) => join(origin.dir, `check-hold-${id}`);
      for (const id of GATED) await Deno.writeTextFile(hold(id), "");
      for (const id of CHECK_GATED) await Deno.writeTextFile(checkHold(id), "");
      const repo = await jobRepo(origin, 11);
      jobId = await createJob(origin, repo, {
        builders: 11,
        sleepMs: { all: 1500 },
        gates: {
          started,
          hold: (id) => GATED.includes(id) ? hold(id) : null,
          checked,
          checkHold: (id) => CHECK_GATED.includes(id) ? checkHold(id) : null,
        },
      });
      await startJob(origin, repo, jobId);

      const taskOf = async (id: string) =>
        JSON.parse(await Deno.readTextFile(join(origin.stateDir, "runs", `${jobId}.${id}`, "state.json")))
          .fleet?.taskId as string | undefined;
      const status = async (id: string): Promise<TaskStatus | null> => {
        const t = await taskOf(id).catch(() => undefined);
        return t ? await q.status(t) : null;
      };
      const runningOn = async (id: string) => {
        let s: TaskStatus | null = null;
        await until(`${id} to be claimed`, async () => (s = await status(id))?.state === "running", 120_000);
        return s!;
      };
      const attemptDir = (s: TaskStatus) =>
        join(fleet.machines.get(s.executor!)!.stateDir, "runs", `${s.taskId}.a${s.attempt}`);
      // Running, and its worker started by this very attempt on a live executor (a record can still name a
      // killed holder until its lease runs out; the worker's line names the attempt's worktree, its run).
      const liveOn = async (id: string) => {
        let s: TaskStatus | null = null;
        await until(`${id}'s worker to start on a live attempt`, async () => {
          s = await status(id);
          if (s?.state !== "running") return false;
          const lines = (await Deno.readTextFile(started).catch(() => "")).split("\n");
          if (!lines.some((l) => l.startsWith(`${id} `) && l.includes(`${s!.taskId}.a${s!.attempt}`))) {
            return false;
          }
          // A killed holder's run was discarded when its executor started again: the live attempt's is there.
          return await Deno.stat(attemptDir(s!)).then(() => true, () => false);
        }, 120_000);
        return s!;
      };
      // Stopped while its check waits at the gate (so it cannot have published); the check then ends.
      const checkedThenStop = async (id: string): Promise<TaskStatus> => {
        await runningOn(id);
        await Deno.remove(hold(id));
        await until(`${id}'s check to run`, async () => {
          const text = await Deno.readTextFile(checked).catch(() => "");
          return text.split("\n").includes(id);
        }, 120_000);
        // The holder now is the one whose check waits at the gate.
        const s = (await status(id))!;
        assert.equal(s.state, "running", `${id} is ${s.state} while its check is held`);
        Deno.kill(fleet.running.get(s.executor!)!.pid, "SIGSTOP");
        await Deno.remove(checkHold(id));
        const now = await status(id);
        assert.equal(now?.state, "running", `${id} ended while its check was held`);
        assert.equal(now?.attempt, s.attempt);
        return s;
      };
      const doneElsewhere = async (id: string, stale: TaskStatus) => {
        await until(
          `${id} done by another attempt`,
          async () => (await status(id))?.state === "done",
          120_000,
        );
        const end = await status(id);
        assert.ok(end!.attempt > stale.attempt, `${id} ended by attempt ${end!.attempt}`);
      };

      // A server restart while the first builders run: calls wait it out, nothing is lost.
      await until("two builders running", async () => {
        const ids = Array.from({ length: 11 }, (_, i) => `b${i}`);
        return (await Promise.all(ids.map(status))).filter((s) => s?.state === "running").length >= 2;
      }, 120_000);
      await nats.restart({ downMs: 500 });

      // kill -9 mid-turn: the task goes to another attempt after the lease; the dead one's leftovers go when
      // its executor starts again.
      const b0 = await liveOn("b0");
      const killed = fleet.running.get(b0.executor!)!;
      Deno.kill(killed.pid, "SIGKILL");
      await killed.done;
      await Deno.remove(hold("b0"));
      await restart(fleet, b0.executor!);
      assert.equal(
        await Deno.stat(attemptDir(b0)).then(() => true, () => false),
        false,
        "the dead attempt's run was not discarded",
      );

      // kill -9 after its checks ran, before publishing.
      const b1 = await checkedThenStop("b1");
      const stopped = fleet.running.get(b1.executor!)!;
      Deno.kill(stopped.pid, "SIGKILL");
      await stopped.done;
      await restart(fleet, b1.executor!);

      // A partition: the executor holding b2's turn pauses; another executor does b2; the paused one resumes.
      const b2 = await liveOn("b2");
      const paused = fleet.running.get(b2.executor!)!;
      Deno.kill(paused.pid, "SIGSTOP");
      await Deno.remove(hold("b2"));
      await doneElsewhere("b2", b2);
      Deno.kill(paused.pid, "SIGCONT");

      // A slow executor whose lease expired after its checks ran comes back with a result: not taken.
      const b3 = await checkedThenStop("b3");
      await doneElsewhere("b3", b3);
      const slow = fleet.running.get(b3.executor!)!;
      Deno.kill(slow.pid, "SIGCONT");

      const done = await waitJob(origin, repo, jobId);
      assert.equal(done.code, 0, done.stdout + done.stderr);
      for (const [stale, who] of [[b2, paused], [b3, slow]] as const) {
        await until(
          `the stale attempt of ${stale.taskId} to stop`,
          () =>
            Promise.resolve(
              who.stderr.some((l) =>
                l.startsWith(`task ${stale.taskId}: `) && /"kind":"(refused|aborted)"/.test(l)
              ),
            ),
          30_000,
        );
        assert.ok(
          !who.stderr.some((l) => l.startsWith(`task ${stale.taskId}: `) && l.includes('"kind":"completed"')),
          `the stale attempt of ${stale.taskId} completed`,
        );
      }
      // Each task ran to completion exactly once across all executors, the killed and paused ones included.
      // An executor logs its outcome after the queue took it, so the origin can see a task done (and the job
      // end) before the line is read: each task's line is waited for, then counted.
      for (const id of [...Array.from({ length: 11 }, (_, i) => `b${i}`), "review"]) {
        const t = await taskOf(id);
        const completions = () =>
          fleet.all.flatMap((e) => e.stderr)
            .filter((l) => l.startsWith(`task ${t}: `) && l.includes('"kind":"completed"'));
        await until(
          `${id}'s executor to log its completion`,
          () => Promise.resolve(completions().length > 0),
          30_000,
        )
          .catch(() => {});
        const completed = completions();
        assert.equal(completed.length, 1, `${id} completed ${completed.length} times`);
        assert.equal((await status(id))?.state, "done", id);
      }
      // The job's page says where each task ran.
      const view = JSON.parse((await originDashboard(origin, nats.url)(`/api/jobs/${jobId}`)).body);
      const ranOn = view.job.tasks as { id: string; executor: string | null }[];
      assert.equal(ranOn.length, 12);
      assert.ok(ranOn.every((t) => ["e1", "e2", "e3"].includes(t.executor ?? "")), JSON.stringify(ranOn));
      await assertOnceAndIntegrate(origin, repo, jobId, 11);
    } catch (error) {
      for (const [i, e] of fleet.all.entries()) {
        console.error(`--- executor process ${i} (pid ${e.pid}):\n${e.stderr.slice(-40).join("\n")}`);
      }
      // The origin's side: what its coordinator said, and its job's last events.
      if (owner && jobId) {
        const dir = join(owner.stateDir, "jobs", jobId);
        for (const file of ["coordinator.log", "events.jsonl"]) {
          const text = await Deno.readTextFile(join(dir, file)).catch((e) => String(e));
          console.error(`--- origin ${file}:\n${text.split("\n").slice(-40).join("\n")}`);
        }
        // Each task's run as the origin sees it: how far its follow and import got.
        for (const id of [...Array.from({ length: 11 }, (_, i) => `b${i}`), "review"]) {
          const run = join(owner.stateDir, "runs", `${jobId}.${id}`);
          const state = await Deno.readTextFile(join(run, "state.json")).then(
            (t) => JSON.parse(t).status,
            String,
          );
          if (state === "reviewing") continue;
          const events = await Deno.readTextFile(join(run, "events.jsonl")).catch((e) => String(e));
          console.error(`--- origin run ${id} (${state}):\n${events.split("\n").slice(-15).join("\n")}`);
        }
      }
      throw error;
    } finally {
      if (owner && jobId) await stopCoordinator(owner, jobId);
      for (const e of fleet.running.values()) {
        try {
          Deno.kill(e.pid, "SIGCONT");
        } catch {
          // gone
        }
        await stopExecutor(e, "SIGINT");
      }
      await queue?.close();
      await nats.stop();
    }
  },
});
