/**
 * The fleet's commands as a person or a parent meets them: refused with the fix when no queue is configured;
 * `spot doctor` and `spot executor ls` on a live queue; a run cancelled on the origin is stopped on its executor
 * within seconds and left for `spot recover`; an executor told SIGTERM drains (claims nothing new, finishes what
 * it runs, exits 0).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, spot, spotEnv, writeEpisode } from "../helpers.ts";
import {
  fleetOf,
  machine,
  prepared,
  runInBackground,
  type RunningExecutor,
  startExecutor,
  stopExecutor,
  until,
} from "./fleet_helpers.ts";
import { startNats } from "./nats_server.ts";

const code = (r: { json: Record<string, unknown> }) => (r.json.error as { code?: string } | undefined)?.code;

Deno.test("without a queue, the fleet's commands are refused with the config that enables them", async () => {
  const env = await spotEnv({});
  for (
    const args of [["run", "--id", "run-1", "--on", "fleet"], ["executor", "join"], [
      "executor",
      "ls",
      "--json",
    ]]
  ) {
    const r = await spot(env, env.dir, ...args);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(code(r), "QUEUE_NOT_CONFIGURED");
    assert.match(JSON.stringify(r.json), /"backend": \\"nats\\"|backend.*nats/);
  }
  const both = await spot(env, env.dir, "run", "--id", "run-1", "--on", "fleet", "--detach");
  assert.equal(code(both), "CLI_USAGE");
});

Deno.test("doctor fails with the fix when the configured queue does not answer", async () => {
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const env = await spotEnv({ sandbox: "none", queue: { backend: "nats", url: `nats://127.0.0.1:${port}` } });
  const model = join(env.dir, "any.jsonl");
  await writeEpisode(model, [{ op: "say", text: "hi" }]);
  const r = await spot(env, env.dir, "doctor", "--profile", "replay", "--model", model);
  assert.equal(code(r), "DOCTOR_FAILED", r.stderr);
  const queue = (r.json.error as { details: { checks: { name: string; ok: boolean; fix?: string }[] } })
    .details
    .checks.find((c) => c.name === "queue");
  assert.equal(queue?.ok, false);
  assert.match(queue?.fix ?? "", /nats-server -js|queue\.url/);
});

Deno.test({
  name:
    "fleet: doctor and executor ls see the queue; a cancel reaches the executor within seconds; SIGTERM drains",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const nats = await startNats();
    let started: RunningExecutor | null = null;
    // Every background run is stopped by its pid however the test ends (one left following its task once held
    // the test run open after a failure).
    const runs: ReturnType<typeof runInBackground>[] = [];
    const background = (runId: string) => {
      const bg = runInBackground(origin, repo, runId);
      runs.push(bg);
      return bg;
    };
    let origin: Awaited<ReturnType<typeof machine>>;
    let repo: string;
    try {
      origin = await machine("origin", nats.url);
      repo = await makeRepo({ "README.md": "# r\n" }, origin.dir);
      const model = join(origin.dir, "any.jsonl");
      await writeEpisode(model, [{ op: "say", text: "hi" }]);
      const doctor = () =>
        spot(origin, repo, "doctor", "--profile", "replay", "--model", model, "--sandbox", "none");
      const lonely = await doctor();
      assert.equal(lonely.code, 0, lonely.stderr);
      const queueLine = (r: typeof lonely) =>
        (r.json.checks as { name: string; detail: string; warn?: boolean }[]).find((c) =>
          c.name === "queue"
        )!;
      assert.match(queueLine(lonely).detail, /JetStream on; 0 executor\(s\) alive, 0 serving replay/);
      assert.equal(queueLine(lonely).warn, true);

      const e1 = started = await startExecutor(await machine("e1", nats.url), ["--capacity", "1"]);
      const ready = await doctor();
      assert.match(queueLine(ready).detail, /1 executor\(s\) alive, 1 serving replay/);
      const ls = await spot(origin, repo, "executor", "ls", "--json");
      assert.equal(ls.code, 0, ls.stderr);
      const [seen] = ls.json.executors as { name: string; status: string; capacity: number; load: number }[];
      assert.deepEqual([seen.name, seen.status, seen.capacity, seen.load], ["e1", "alive", 1, 0]);

      // A cancel: the origin's spot run is interrupted while the executor runs a long turn.
      const long = await prepared(origin, repo, "long", [{ op: "sleep", ms: 60_000 }, {
        op: "write",
        path: "long.txt",
        content: "x",
      }]);
      const bg = background(long);
      await until("the long run to be claimed", async () => (await fleetOf(origin, long)).executor === "e1");
      await new Promise((r) => setTimeout(r, 1_000));
      const cancelledAt = Date.now();
      Deno.kill(await bg.pid, "SIGINT");
      const interrupted = await bg.done;
      assert.equal(interrupted.exitCode, 130, interrupted.stderr);
      assert.match(interrupted.stderr, /WORKER_INTERRUPTED/);
      await until(
        "the executor to stop the cancelled attempt",
        () =>
          Promise.resolve(e1.stderr.some((l) => l.includes('"kind":"aborted"') && l.includes("cancelled"))),
        15_000,
      );
      assert.ok(
        Date.now() - cancelledAt < 10_000,
        `the cancel took ${Date.now() - cancelledAt} ms to reach the executor`,
      );
      const recovered = await spot(origin, repo, "recover", "--id", long);
      assert.equal(recovered.code, 0, recovered.stderr);
      assert.equal(recovered.json.status, "prepared");

      // A drain: SIGTERM while a gated turn runs; nothing new is claimed; the turn finishes; exit 0.
      const hold = join(origin.dir, "hold");
      await Deno.writeTextFile(hold, "");
      const gated = await prepared(origin, repo, "gated", [
        { op: "exec", argv: ["sh", "-c", `while [ -e '${hold}' ]; do sleep 0.05; done`] },
        { op: "write", path: "gated.txt", content: "done\n" },
      ]);
      const first = background(gated);
      await until(
        "the gated run to be claimed",
        async () => (await fleetOf(origin, gated)).executor === "e1",
      );
      Deno.kill(e1.pid, "SIGTERM");
      await until("e1 to say it drains", async () => {
        const r = await spot(origin, repo, "executor", "ls", "--json");
        return (r.json.executors as { status: string }[])[0]?.status === "draining";
      });
      const later = await prepared(origin, repo, "later", [{ op: "write", path: "later.txt", content: "x" }]);
      const second = background(later);
      await until("the later run to be queued", async () => !!(await fleetOf(origin, later)).enqueuedAt);
      await Deno.remove(hold);
      const ran = await first.done;
      assert.equal(ran.exitCode, 0, ran.stderr);
      assert.equal(JSON.parse(ran.stdout).status, "reviewing");
      const end = await stopExecutor(e1);
      assert.equal(end.exitCode, 0, end.stderr);
      assert.equal(JSON.parse(end.stdout).done, 1);
      assert.equal(
        (await fleetOf(origin, later)).executor,
        undefined,
        "a draining executor claimed new work",
      );
      Deno.kill(await second.pid, "SIGINT");
      await second.done;
    } finally {
      for (const bg of runs) await bg.stop();
      if (started) await stopExecutor(started, "SIGINT");
      await nats.stop();
    }
  },
});
