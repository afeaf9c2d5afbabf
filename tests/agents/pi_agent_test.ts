/** A named agent with the real pi CLI (.workers) against the scripted model server: start → watch → poll. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, spot, spotEnv, writeJson } from "../helpers.ts";
import { startModelServer } from "../model_server/mod.ts";
import { availability, scriptedPiProfile } from "../conformance/workers.ts";

const KEY_ENV = "SPOT_AGENT_PI_KEY";
const FILE = "hello.txt";
const CONTENT = "hello from the scripted model\n";
const pi = availability("pi");

Deno.test({
  name: "agent start with real pi returns at once; watch ends on the settled line with model, cost and turns",
  ignore: "ignore" in pi,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if ("fail" in pi) throw new Error(pi.fail);
    const binary = (pi as { binary: string }).binary;
    const server = startModelServer({ scenario: "success", file: FILE, content: CONTENT });
    try {
      const env = await spotEnv({
        selfReview: { enabled: false },
        limits: { workerIdleSeconds: 20, workerTimeoutSeconds: 60 },
        profiles: {
          "pi-scripted": scriptedPiProfile(server.url, binary, KEY_ENV),
        },
      });
      env.env[KEY_ENV] = "sk-agent-test-not-a-real-key";
      const repo = await makeRepo({ "README.md": "# agent\n" }, env.dir);
      const taskFile = join(env.dir, "task.json");
      await writeJson(taskFile, {
        schemaVersion: 1,
        goal: `Create ${FILE} containing a greeting`,
        allowedPaths: [FILE],
        acceptanceCriteria: [`${FILE} exists and greets`],
        verification: [{ argv: ["grep", "-q", "scripted model", FILE], timeoutSeconds: 30 }],
        risk: "low",
      });
      const t0 = Date.now();
      const r = await spot(
        env,
        repo,
        "agent",
        "start",
        "pi1",
        "--task",
        taskFile,
        "--profile",
        "pi-scripted",
      );
      const startMs = Date.now() - t0;
      assert.equal(r.code, 0, r.stderr);
      assert.ok(startMs < 5000, `start took ${startMs} ms`);
      const watch = await spot(env, repo, "agent", "watch", "pi1", "--interval", "0.5");
      assert.equal(watch.code, 0, watch.stderr);
      const out = watch.stdout.trimEnd().split("\n");
      assert.equal(out.at(-1), "--- no agents in flight ---");
      const last = out.findLast((l) => l.startsWith("pi1: ")) ?? "";
      assert.match(
        last,
        /^pi1: STATUS=OK OUTPUT=\S+result\.md \d+s \d+B rc=0 terminal=stop model=scripted\/scripted-model cost=\$\d+\.\d{4} turns=\d+$/,
        watch.stdout,
      );
      const poll = await spot(env, repo, "agent", "poll", "pi1");
      assert.equal(poll.stdout.trim(), last.slice("pi1: ".length), "poll and watch disagree");
      // turns counts pi's usage reports, which the server's replies produced; the text is pi's final message.
      const runDir = String(r.json.runDir);
      const events = (await Deno.readTextFile(join(runDir, "events.jsonl"))).trim().split("\n").map((l) =>
        JSON.parse(l)
      );
      const usage = events.filter((e) => e.type === "worker_usage");
      assert.ok(usage.length > 0);
      assert.match(last, new RegExp(` turns=${usage.length}$`));
      const final = events.findLast((e) => e.type === "worker_result").text;
      assert.equal(
        await Deno.readTextFile(join(runDir, "result.md")),
        final.endsWith("\n") ? final : final + "\n",
      );
      const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
      assert.equal(await Deno.readTextFile(join(state.worktreePath, FILE)), CONTENT);
      assert.ok(server.requests.some((q) => q.dialect !== null), "pi never reached the scripted model");
      await spot(env, repo, "agent", "stop", "pi1");
    } finally {
      await server.close();
    }
  },
});
