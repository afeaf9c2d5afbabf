/**
 * A job's research task with real qwen (.workers) under bwrap, its provider reached through the forwarder
 * (a profile with baseUrl and apiKeyEnv), against the scripted model, which calls qwen's `web_fetch` on a
 * loopback page. The research turn gets a second channel, the web proxy (worker-web.jsonl). qwen installs a
 * global undici ProxyAgent that ignores NO_PROXY, so its provider calls also go to the proxy, for
 * 127.0.0.1:18765: the provider route must carry them to spot's forwarder (`provider` in the log), and
 * never to the host's own 127.0.0.1:18765, where the test listens as a decoy. The research task lists that
 * address in its webHosts on purpose: even so, the decoy sees nothing. A scout on the same script has no web
 * proxy at all, and the page sees nothing from it.
 */
import assert from "node:assert/strict";
import { BRIDGE_PORT } from "../../sandbox/sandbox_policy.ts";
import { availability } from "../conformance/workers.ts";
import { runWebJob, scriptedProfile, startPage, startScriptedModel, task } from "./web_job.ts";

const qwen = availability("qwen");

Deno.test({
  name:
    "web (forwarder + web proxy, qwen): research fetches the page, provider calls ride the route, not the host",
  ignore: "ignore" in qwen,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if ("fail" in qwen) throw new Error(qwen.fail);
    const page = startPage();
    const model = startScriptedModel(page.url, "web_fetch");
    const decoyHits: string[] = [];
    let decoy: Deno.HttpServer | null = null;
    try {
      decoy = Deno.serve({ hostname: "127.0.0.1", port: BRIDGE_PORT, onListen() {} }, (r) => {
        decoyHits.push(`${r.method} ${new URL(r.url).pathname}`);
        return new Response("decoy", { status: 500 });
      });
    } catch {
      // The port is taken on this machine: the forwarder's log still shows where the calls went.
    }
    let env: { dir: string } | null = null;
    try {
      const binary = (qwen as { binary: string }).binary;
      const job = await runWebJob(scriptedProfile("qwen", binary, model.url, { maxRetries: 0 }), {
        tasks: [
          task("read", "research", { webHosts: [page.host, `127.0.0.1:${BRIDGE_PORT}`] }),
          task("look", "scout"),
        ],
      });
      env = job.env;
      const story = `job ${JSON.stringify(job.done.json)}`;
      for (const id of ["read", "look"]) {
        assert.equal(job.record(id).state, "succeeded", `${id}: ${job.record(id).reason}; ${story}`);
      }
      assert.deepEqual(page.hits, ["/page"], "one fetch reached the page: the research's");
      assert.ok(job.record("read").result?.brief?.includes(page.marker), "the brief quotes the page");
      const web = (await job.log("read", "worker-web.jsonl")) ?? [];
      const said = JSON.stringify(web);
      assert.ok(web.some((l) => l.decision === "allowed" && l.port === page.port), said);
      assert.ok(
        web.some((l) => l.decision === "provider" && l.port === BRIDGE_PORT),
        `provider route: ${said}`,
      );
      assert.ok(!web.some((l) => l.decision === "allowed" && l.port === BRIDGE_PORT), said);
      assert.deepEqual(decoyHits, [], "the host's own 127.0.0.1:18765 was never reached");
      // The forwarder saw the provider calls that came through the route, and passed them on.
      const forwarded = ((await job.log("read", "forwarder.jsonl")) ?? []).filter((l) =>
        l.decision === "forwarded"
      );
      assert.ok(
        forwarded.length >= 2,
        `the model was reached through the forwarder: ${JSON.stringify(forwarded)}`,
      );
      assert.equal(await job.log("look", "worker-web.jsonl"), null, "a scout has no web proxy");
      assert.ok(!job.record("look").result?.brief?.includes(page.marker));
      const notes = (await job.events("read")).filter((e) => e.type === "note").map((e) => e.message).join(
        "\n",
      );
      assert.match(notes, /Web tools for this research turn: .*recorded in worker-web\.jsonl/);
    } finally {
      await model.close();
      await page.close();
      await decoy?.shutdown();
      if (env) await Deno.remove(env.dir, { recursive: true });
    }
  },
});
