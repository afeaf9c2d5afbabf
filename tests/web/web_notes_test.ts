/**
 * What a research run records about the web when spot cannot confine it or the CLI has nothing to give:
 * - a CLI without web tools (the replay worker) runs the research turn without them, and a note says so;
 * - under `--sandbox none` a CLI with web tools (real opencode) gets them, the listed hosts are not enforced
 *   (the page is fetched though the job lists no host at all), and a note says exactly that.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { availability } from "../conformance/workers.ts";
import { episode, init, result, runToEnd, setup } from "../jobs/helpers.ts";
import { runWebJob, scriptedProfile, startPage, startScriptedModel, task } from "./web_job.ts";

async function notes(stateDir: string, runId: string): Promise<string> {
  const text = await Deno.readTextFile(join(stateDir, "runs", runId, "events.jsonl"));
  return text.trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.type === "note")
    .map((e) => e.message).join("\n");
}

Deno.test("web: a research task on a CLI without web tools runs without them, and the run says so", async () => {
  const { env, repo } = await setup("none");
  try {
    const said = result({
      summary: "read",
      brief: "from the repository",
      sources: [{ url: "https://example.org/", title: "x", supports: "y" }],
    });
    const created = await init(env, repo, {
      webHosts: ["docs.deno.com:443"],
      tasks: [task("read", "research", {
        model: { profile: "replay", id: await episode(env.dir, "read", [said]) },
      })],
    });
    assert.equal(created.code, 0, created.stderr);
    const jobId = String(created.json.jobId);
    const done = await runToEnd(env, repo, jobId);
    assert.equal(done.code, 0, done.stdout + done.stderr);
    assert.match(
      await notes(env.stateDir, `${jobId}.read`),
      /The replay CLI has no web tools spot can give: the research turn runs without the web/,
    );
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});

const opencode = availability("opencode");

Deno.test({
  name:
    "web under --sandbox none (opencode): the tools are given and the hosts are not enforced, as the note says",
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
      const job = await runWebJob(scriptedProfile("opencode", binary, model.url), {
        config: { profile: "p", sandbox: "none" },
        tasks: [task("read", "research")],
      });
      env = job.env;
      assert.equal(job.record("read").state, "succeeded", job.record("read").reason);
      // No host is listed, yet the page is fetched: nothing enforces the list without an OS sandbox.
      assert.deepEqual(page.hits, ["/page"]);
      assert.match(
        await notes(job.env.stateDir, String(job.record("read").runId)),
        /Web tools for this research turn: no host listed; not enforced: without an OS sandbox/,
      );
    } finally {
      await model.close();
      await page.close();
      if (env) await Deno.remove(env.dir, { recursive: true });
    }
  },
});
