/**
 * An executor that cannot reach the queue stops its attempt once the lease has passed without an answered
 * heartbeat, although its heartbeat call would wait out a minute's outage (queue/retry.ts): by then another
 * executor may hold the task. The server is paused (SIGSTOP), so calls hang rather than fail at once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, spot } from "../helpers.ts";
import {
  fleetOf,
  machine,
  prepared,
  runInBackground,
  startExecutor,
  stopExecutor,
  until,
} from "./fleet_helpers.ts";
import { ended } from "./nats_server.ts";
import { startNats } from "./nats_server.ts";

const LEASE_S = 3;
/** Well inside retry.ts's minute of patience, well past the lease. */
const OUTAGE_MS = 15_000;

Deno.test({
  name:
    "fleet: an executor cut off from the queue stops its attempt once the lease ran out, not a minute later",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const nats = await startNats();
    let paused = false;
    const procs: { pid: number; done: Promise<unknown> }[] = [];
    try {
      const origin = await machine("origin", nats.url);
      const repo = await makeRepo({ "README.md": "# r\n" }, origin.dir);
      const e1 = await startExecutor(await machine("e1", nats.url), ["--capacity", "1"]);
      procs.push(e1);
      const started = join(origin.dir, "started");
      const long = await prepared(origin, repo, "long", [
        { op: "exec", argv: ["sh", "-c", `echo started > '${started}'`] },
        { op: "sleep", ms: 120_000 },
      ]);
      const bg = runInBackground(origin, repo, long);
      procs.push({ pid: await bg.pid, done: bg.done });
      await until("the long run to be claimed", async () => (await fleetOf(origin, long)).executor === "e1");
      // Cut off while the worker's turn runs (not while the attempt still fetches the repository).
      await until("the worker to start", () => Deno.stat(started).then(() => true, () => false));
      const aborted = () =>
        e1.stderr.some((l) => l.includes('"kind":"aborted"') && l.includes("no heartbeat reached the queue"));
      Deno.kill(nats.pid(), "SIGSTOP");
      paused = true;
      const cut = Date.now();
      await until("e1 to stop its attempt", () => Promise.resolve(aborted()), OUTAGE_MS)
        .catch((error) => {
          throw new Error(`${error.message}; e1 said:\n${e1.stderr.slice(-20).join("\n")}`);
        });
      const took = Date.now() - cut;
      // The lease, a heartbeat's interval and room for a loaded machine; a minute's retry would miss it.
      assert.ok(took < (LEASE_S + 8) * 1000, `the attempt stopped ${took} ms after the queue went away`);
      Deno.kill(nats.pid(), "SIGCONT");
      paused = false;
      // Back: the task was given up by attempt 1 and is claimed again, as attempt 2 (here, by e1 itself).
      await until("the task to be claimed again", async () => {
        const ls = await spot(origin, repo, "executor", "ls", "--json");
        const [e] = ls.json.executors as { running: { attempt: number }[] }[];
        return e?.running.some((r) => r.attempt === 2) ?? false;
      });
      // Told to stop while the server is gone, it gives up on the server within seconds, not retry.ts's minute.
      await nats.stop();
      const told = Date.now();
      const end = await stopExecutor(e1, "SIGINT");
      assert.notEqual(end.signal, "SIGKILL", "e1 did not stop when told to");
      assert.ok(Date.now() - told < 12_000, `e1 took ${Date.now() - told} ms to stop`);
    } finally {
      if (paused) Deno.kill(nats.pid(), "SIGCONT");
      for (const p of procs.reverse()) await ended(p.pid, p.done, "SIGINT");
      await nats.stop();
    }
  },
});
