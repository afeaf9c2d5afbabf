/**
 * One graph with the real pi CLI (.workers) against the scripted model server: a replay scout, a pi builder
 * that writes its file under the default sandbox and reports its result as JSON, a replay reviewer that
 * approves its fingerprint; then `spot job integrate` lands the file on the source branch.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, sh, spot, spotEnv } from "../helpers.ts";
import { startModelServer } from "../model_server/mod.ts";
import { availability, scriptedPiProfile } from "../conformance/workers.ts";
import { approve, episode, init, replay, result, runToEnd, task } from "./helpers.ts";

const KEY_ENV = "SPOT_JOB_PI_KEY";
const FILE = "hello.txt";
const CONTENT = "hello from the scripted model\n";
const pi = availability("pi");

Deno.test({
  name: "job with real pi: a pi builder's file passes its checks and review and integrates",
  ignore: "ignore" in pi,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if ("fail" in pi) throw new Error(pi.fail);
    const binary = (pi as { binary: string }).binary;
    const finalText = "Wrote it.\n```json\n" +
      JSON.stringify({ status: "succeeded", summary: `${FILE} greets`, changedFiles: [FILE] }) + "\n```";
    const server = startModelServer({ scenario: "success", file: FILE, content: CONTENT, finalText });
    const env = await spotEnv({
      maxConcurrentRuns: 16,
      selfReview: { enabled: false },
      limits: { workerIdleSeconds: 20, workerTimeoutSeconds: 60 },
      profiles: {
        "pi-scripted": scriptedPiProfile(server.url, binary, KEY_ENV),
      },
    });
    env.env[KEY_ENV] = "sk-job-test-not-a-real-key";
    try {
      const repo = await makeRepo({ "README.md": "# job\n" }, env.dir);
      const created = await init(env, repo, {
        allowWrites: true,
        integratedChecks: [{ id: "greets", argv: ["grep", "-q", "scripted model", FILE] }],
        tasks: [
          task("scout", "scout", {
            model: replay(
              await episode(env.dir, "scout", [result({ summary: "empty repo", brief: "add it" })]),
            ),
          }),
          task("hello", "builder", {
            after: ["scout"],
            ownership: [FILE],
            checks: [{ id: "greets", argv: ["grep", "-q", "scripted model", FILE] }],
            model: { profile: "pi-scripted" },
          }),
          task("review", "reviewer", {
            after: ["hello"],
            reviewOf: "hello",
            model: replay(await episode(env.dir, "review", [approve("hello")])),
          }),
        ],
      });
      assert.equal(created.code, 0, created.stderr);
      const jobId = String(created.json.jobId);
      const done = await runToEnd(env, repo, jobId);
      assert.equal(done.code, 0, done.stdout + done.stderr);
      const events = (await Deno.readTextFile(join(env.stateDir, "runs", `${jobId}.hello`, "events.jsonl")))
        .trim().split("\n").map((l) => JSON.parse(l));
      assert.ok(events.some((e) => e.type === "worker_start"), "pi ran the builder");
      assert.ok(server.requests.some((q) => q.dialect !== null), "pi never reached the scripted model");
      const integrated = await spot(env, repo, "job", "integrate", jobId);
      assert.equal(integrated.code, 0, integrated.stdout + integrated.stderr);
      assert.equal(await Deno.readTextFile(join(repo, FILE)), CONTENT);
      assert.match(await sh(repo, "git", "log", "-1", "--format=%s"), /hello/);
    } finally {
      await server.close();
      await Deno.remove(env.dir, { recursive: true });
    }
  },
});
