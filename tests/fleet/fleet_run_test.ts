/**
 * One run on the fleet, end to end, on loopback: the origin prepares, `spot run --on fleet` sends it, an executor
 * on another "machine" (its own state, cache, config and HOME) fetches the repository as bundles, runs the replay
 * worker and spot's checks under bubblewrap, publishes the verified commit; the origin takes it over, and the
 * parent approves and integrates it with today's gates, here.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, sh, writeEpisode, writeJson } from "../helpers.ts";
import { machine, originDashboard, spot, startExecutor, stopExecutor } from "./fleet_helpers.ts";
import { startNats } from "./nats_server.ts";
import { openNatsQueue } from "../../queue/nats.ts";
import { QueueConfig } from "../../schemas/config.ts";

Deno.test({
  name: "fleet: a run sent with --on fleet is verified on an executor and integrated on the origin",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const nats = await startNats();
    try {
      const origin = await machine("origin", nats.url, { sandbox: "bwrap" });
      const exec = await machine("e1", nats.url, { sandbox: "bwrap" });
      const repo = await makeRepo(
        { "src/add.ts": "export const add = (a: number, b: number) => a - b;\n" },
        origin.dir,
      );
      const episode = join(origin.dir, "fix.jsonl");
      await writeEpisode(episode, [
        { op: "write", path: "src/add.ts", content: "export const add = (a: number, b: number) => a + b;\n" },
        { op: "say", text: "fixed" },
      ]);
      const task = join(origin.dir, "task.json");
      await writeJson(task, {
        schemaVersion: 1,
        goal: "Fix add so it adds",
        allowedPaths: ["src/add.ts"],
        acceptanceCriteria: ["add(2, 3) is 5"],
        verification: [{ argv: ["grep", "-rq", "a + b", "."], timeoutSeconds: 30 }],
        risk: "low",
      });
      const executor = await startExecutor(exec);
      try {
        const prepared = await spot(
          origin,
          repo,
          "prepare",
          "--task",
          task,
          "--profile",
          "replay",
          "--model",
          episode,
        );
        assert.equal(prepared.code, 0, prepared.stderr);
        const runId = String(prepared.json.runId);
        const ran = await spot(origin, repo, "run", "--id", runId, "--on", "fleet");
        assert.equal(ran.code, 0, ran.stderr);
        assert.equal(ran.json.executor, "e1");
        assert.equal(ran.json.status, "reviewing");
        assert.equal(ran.json.passed, true);
        const inspect = await spot(origin, repo, "inspect", "--id", runId);
        assert.equal(inspect.json.executor, "e1");
        const state = inspect.json.state as Record<string, unknown>;
        assert.equal((state.fleet as Record<string, unknown>).executor, "e1");
        assert.equal((state.sandboxDetails as Record<string, unknown>).backend, "bwrap");
        const events = (await Deno.readTextFile(join(origin.stateDir, "runs", runId, "events.jsonl")))
          .split("\n").filter(Boolean).map((l) => JSON.parse(l));
        assert.ok(
          events.some((e) => e.type === "worker_text" && e.text === "fixed"),
          "the worker's events came back",
        );
        assert.deepEqual(events.filter((e) => e.type === "fleet").map((e) => e.state), [
          "queued",
          "claimed",
          "imported",
        ]);
        const diff = await spot(origin, repo, "diff", "--id", runId);
        assert.match(String(diff.json.diff ?? diff.stdout), /a \+ b/);
        const review = join(origin.dir, "review.json");
        await writeJson(review, {
          schemaVersion: 1,
          verdict: "approve",
          diffSha256: ran.json.diffSha256,
          findings: [],
          verificationGaps: [],
          summary: "ok",
        });
        const approved = await spot(
          origin,
          repo,
          "approve",
          "--id",
          runId,
          "--review",
          review,
          "--message",
          "fix add",
        );
        assert.equal(approved.code, 0, approved.stderr);
        const integrated = await spot(origin, repo, "integrate", "--id", runId);
        assert.equal(integrated.code, 0, integrated.stderr);
        assert.match(await Deno.readTextFile(join(repo, "src/add.ts")), /a \+ b/);
        assert.match(await sh(repo, "git", "log", "-1", "--format=%s"), /fix add/);
        // The origin's dashboard shows the executor and where the run ran; inspect names it too.
        const dash = originDashboard(origin, nats.url);
        const fleetJson = JSON.parse((await dash("/api/fleet")).body);
        assert.deepEqual(fleetJson.executors.map((e: { name: string }) => e.name), ["e1"]);
        assert.equal(fleetJson.executors[0].capacity, 8);
        assert.deepEqual(fleetJson.runs[0], {
          runId,
          status: "integrated",
          executor: "e1",
          attempt: 1,
          taskId: ran.json.taskId,
        });
        const page = await dash("/fleet");
        assert.equal(page.status, 200);
        assert.match(page.body, new RegExp(`${runId}[\\s\\S]*e1`));
        // The executor kept nothing of the attempt: its run and worktree were scratch.
        assert.deepEqual([...Deno.readDirSync(join(exec.stateDir, "runs"))].map((e) => e.name), []);

        // A second run from a dirty checkout: its snapshot commit travels, and only what the executor lacks.
        await Deno.writeTextFile(join(repo, "NOTES.md"), "draft\n");
        const again = await spot(
          origin,
          repo,
          "prepare",
          "--task",
          task,
          "--profile",
          "replay",
          "--model",
          episode,
        );
        assert.equal(again.code, 0, again.stderr);
        assert.ok(again.json.snapshotCommit, "the checkout was dirty");
        const second = await spot(origin, repo, "run", "--id", String(again.json.runId), "--on", "fleet");
        // The worker rewrites the integrated line as it is: nothing changed, and the run says so, as it would here.
        assert.equal(
          second.json.error ? (second.json.error as { code: string }).code : "",
          "NO_CHANGES",
        );
        const queue = await openNatsQueue(QueueConfig.parse({ backend: "nats", url: nats.url }), {
          client: "test",
        });
        try {
          const bundles = await queue.objects.list("repo/");
          assert.equal(bundles.length, 3, bundles.join(" "));
          const metas = await Promise.all(bundles.map((b) => queue.objects.meta(b)));
          // The first upload is the whole history; each later one names what it builds on.
          assert.equal(metas.filter((m) => m?.prerequisites === "").length, 1);
          assert.equal(metas.filter((m) => m?.prerequisites).length, 2);
        } finally {
          await queue.close();
        }
        const attempts = executor.stderr.filter((l) => l.includes('"kind":"completed"'));
        assert.deepEqual(attempts.map((l) => JSON.parse(l.slice(l.indexOf("{"))).fetched), [1, 2]);
      } catch (error) {
        await stopExecutor(executor, "SIGINT");
        console.error(executor.stderr.join("\n"));
        throw error;
      }
      const end = await stopExecutor(executor);
      assert.equal(end.exitCode, 0, end.stderr);
      assert.equal(JSON.parse(end.stdout).done, 2);
    } finally {
      await nats.stop();
    }
  },
});
