/**
 * A job's research task with real opencode (.workers) under bwrap, its provider reached through the allowlist
 * proxy (`egress: "allowlist"`), against the scripted model, which calls opencode's `webfetch` on a page the
 * test serves on loopback. One proxy, so the job's webHosts join the provider's host on its list:
 * - research with the page's host listed: the page is fetched through the proxy (`allowed` in
 *   worker-egress.jsonl) and the task's brief quotes it;
 * - research whose own webHosts leave the page out: refused by the proxy and recorded, the page never hit;
 * - a scout and a builder, on the same script: their webfetch is denied by opencode's config, so the page sees
 *   nothing from them and their logs grant nothing for it.
 * The page counts exactly one fetch: any of the refusals failing would make it more.
 */
import assert from "node:assert/strict";
import { availability } from "../conformance/workers.ts";
import { spot } from "../helpers.ts";
import { runWebJob, scriptedProfile, startPage, startScriptedModel, task } from "./web_job.ts";

const opencode = availability("opencode");

Deno.test({
  name:
    "web (allowlist proxy, opencode): research fetches only the listed host; a scout and a builder cannot",
  ignore: "ignore" in opencode,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if ("fail" in opencode) throw new Error(opencode.fail);
    const page = startPage();
    const model = startScriptedModel(page.url, "webfetch");
    let env: { dir: string } | null = null;
    try {
      const binary = (opencode as { binary: string }).binary;
      const job = await runWebJob(scriptedProfile("opencode", binary, model.url, { egress: "allowlist" }), {
        allowWrites: true,
        webHosts: [page.host],
        tasks: [
          task("read", "research"),
          task("denied", "research", { webHosts: ["127.0.0.1:9"] }),
          task("look", "scout"),
          task("build", "builder", { ownership: ["notes"], noChecksReason: "writes nothing" }),
        ],
      });
      env = job.env;
      const story = `job ${JSON.stringify(job.done.json)}`;
      // The builder fails anyway (it changed nothing: NO_CHANGES): its web is the point here.
      for (const id of ["read", "denied", "look"]) {
        assert.equal(job.record(id).state, "succeeded", `${id}: ${job.record(id).reason}; ${story}`);
      }
      assert.deepEqual(page.hits, ["/page"], "exactly one fetch reached the page: the listed research's");
      assert.ok(job.record("read").result?.brief?.includes(page.marker), "the brief quotes the page");
      const granted = (await job.log("read", "worker-egress.jsonl")) ?? [];
      assert.ok(
        granted.some((l) => l.decision === "allowed" && l.port === page.port),
        JSON.stringify(granted),
      );
      // `spot inspect` counts the same log's decisions for a parent that does not read files.
      const inspected = await spot(job.env, job.repo, "inspect", "--id", String(job.record("read").runId));
      assert.equal(inspected.code, 0, inspected.stderr);
      const counts =
        (inspected.json.networkLogs as Record<string, Record<string, number>>)["worker-egress.jsonl"];
      assert.equal(
        counts?.allowed,
        granted.filter((l) => l.decision === "allowed").length,
        JSON.stringify(counts),
      );
      const denied = (await job.log("denied", "worker-egress.jsonl")) ?? [];
      assert.ok(
        denied.some((l) => l.decision === "refused" && l.line?.includes(page.host)),
        `the unlisted host is refused and recorded: ${JSON.stringify(denied)}`,
      );
      assert.ok(!job.record("denied").result?.brief?.includes(page.marker));
      for (const id of ["look", "build"]) {
        const log = (await job.log(id, "worker-egress.jsonl")) ?? [];
        assert.ok(
          !JSON.stringify(log).includes(page.host),
          `${id}'s proxy never saw the page: ${JSON.stringify(log)}`,
        );
        assert.ok(!job.record(id).result?.brief?.includes(page.marker), id);
        // The model did ask for the page: opencode answered that the tool is not there.
        const calls = (await job.events(id)).filter((e) => e.type === "worker_tool_call");
        assert.match(JSON.stringify(calls), /unavailable tool 'webfetch'/, `${id}: ${JSON.stringify(calls)}`);
      }
      const notes = (await job.events("read")).filter((e) => e.type === "note").map((e) => e.message).join(
        "\n",
      );
      assert.match(notes, new RegExp(`Web tools for this research turn: ${page.host}; enforced`));
    } finally {
      await model.close();
      await page.close();
      if (env) await Deno.remove(env.dir, { recursive: true });
    }
  },
});
