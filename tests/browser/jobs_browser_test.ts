/**
 * Jobs on the live dashboard, in a real headless Chromium: a job created through the CLI appears on the open
 * jobs list, and its page follows a task from queued to running to succeeded while `spot job` runs it with the
 * replay worker, without a reload: the graph's nodes, their edges, times and costs, from pushed events.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { Config } from "../../schemas/config.ts";
import { startServer } from "../../serve/server.ts";
import { resolvePaths } from "../../store/paths.ts";
import { RunIndex } from "../../store/run_index.ts";
import { spot } from "../helpers.ts";
import { episode, init, replay, result, setup, task } from "../jobs/helpers.ts";
import { browserMissing, launch, OUTPUT_DIR, watchForScripts } from "./browser.ts";

/** Each wait is bounded, and generous for a cold browser on a loaded two-core machine. */
const WAIT_MS = 10_000;
/** The scout's worker sleeps this long, so the page has time to see it running. */
const SCOUT_SLEEP_MS = 4_000;

const same = (page: Page) => page.evaluate(() => (globalThis as { __same?: boolean }).__same === true);
const mark = (page: Page) => page.evaluate(() => (globalThis as { __same?: boolean }).__same = true);
const node = (id: string, state: string) => `#job-graph [data-task="${id}"][data-state="${state}"]`;

Deno.test({
  name: "spot serve shows a job created and run through the CLI, its tasks changing state live",
  ignore: browserMissing(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { env, repo } = await setup();
    const paths = resolvePaths((name) => env.env[name]);
    const server = startServer({
      paths,
      config: Config.parse({}),
      env: (name) => env.env[name],
      index: RunIndex.open(paths),
      host: "127.0.0.1",
      port: 0,
      pollMs: 100,
    });
    await Deno.mkdir(OUTPUT_DIR, { recursive: true });
    const browser = await launch();
    let jobId = "";
    try {
      const page = await browser.context.newPage();
      const injected = await watchForScripts(page);
      await page.goto(`${server.url}jobs`);
      await page.waitForSelector("#live-status.on", { timeout: WAIT_MS });
      assert.match(await page.textContent("#jobs-panel") ?? "", /No jobs yet/);
      await mark(page);

      const created = await init(env, repo, {
        tasks: [
          task("scout", "scout", {
            model: replay(
              await episode(env.dir, "scout", [
                { op: "sleep", ms: SCOUT_SLEEP_MS },
                result({ summary: "x lives in api/x.ts", brief: "x lives in api/x.ts" }),
              ]),
            ),
          }),
          task("plan", "planner", {
            after: ["scout"],
            model: replay(
              await episode(env.dir, "plan", [result({ summary: "change x", brief: "set x to 2" })]),
            ),
          }),
        ],
      });
      assert.equal(created.code, 0, created.stderr);
      jobId = String(created.json.jobId);
      // The list learns of the new job from the event stream.
      await page.waitForSelector(`tr.job[data-job="${jobId}"]`, { timeout: WAIT_MS });
      assert.equal(await same(page), true, "the list was reloaded");

      await page.click(`a[href="/jobs/${jobId}"]`);
      await page.waitForSelector("#live-status.on", { timeout: WAIT_MS });
      await page.waitForSelector(node("scout", "queued"), { timeout: WAIT_MS });
      await page.waitForSelector(node("plan", "queued"));
      await page.waitForSelector('#job-graph path[data-edge="scout plan"]', { state: "attached" });
      await mark(page);

      const started = await spot(env, repo, "job", "start", jobId);
      assert.equal(started.code, 0, started.stderr);
      await page.waitForSelector(node("scout", "running"), { timeout: WAIT_MS });
      assert.match(await page.textContent(node("scout", "running")) ?? "", new RegExp(`${jobId}\\.scout`));

      const done = await spot(env, repo, "job", "wait", jobId, "--timeout-ms", "120000");
      assert.equal(done.code, 0, done.stdout + done.stderr);
      await page.waitForSelector(node("plan", "succeeded"), { timeout: WAIT_MS });
      const scout = await page.textContent(node("scout", "succeeded")) ?? "";
      assert.match(scout, /10 in \/ 5 out/, "the cost line comes from the run's usage");
      assert.match(scout, /\d+s/, "its time");
      // A read-only task's run ends `succeeded` with its task (nothing to integrate): the node says no more.
      assert.doesNotMatch(scout, /run integrated/, "a read-only scout's run claims an integration");
      // (The planner's run may still be closing when its task shows succeeded; it never says integrated.)
      assert.doesNotMatch(await page.textContent(node("plan", "succeeded")) ?? "", /run integrated/);
      assert.match(await page.textContent(".job .panel-head") ?? "", /succeeded/);
      assert.equal(await same(page), true, "the job page was reloaded");

      await page.click(`a[data-open="scout"]`);
      await page.waitForSelector('#task-run[data-open-task="scout"]', { timeout: WAIT_MS });
      assert.match(page.url(), /\?task=scout$/);
      await page.screenshot({ path: join(OUTPUT_DIR, "dashboard-job.png"), fullPage: true });
      assert.deepEqual(await injected(), []);

      const phone = await browser.context.newPage();
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(`${server.url}jobs/${jobId}`);
      const overflow = await phone.evaluate(() => {
        const w = globalThis as unknown as {
          innerWidth: number;
          document: { documentElement: { scrollWidth: number } };
        };
        return w.document.documentElement.scrollWidth - w.innerWidth;
      });
      assert.ok(overflow <= 1, `the job page is ${overflow}px wider than the phone`);
      await phone.close();
    } finally {
      await browser.close();
      await server.stop();
      if (jobId) await spot(env, repo, "job", "cancel", jobId);
    }
  },
});
