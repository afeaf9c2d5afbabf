/**
 * Three things a newcomer saw on the dashboard, in a real headless Chromium: `/health` said `version: null`,
 * the job timeline's caption showed literal backticks around `after`, and the run table showed only the
 * model's last path segment (`deepseek-v4-flash` for `openrouter/deepseek/deepseek-v4-flash`, an episode's
 * file name for a replay run).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import config from "../../deno.json" with { type: "json" };
import { startServer } from "../../serve/server.ts";
import { fixtureHome, fixtureState, writeFixtureRun } from "../fixture_runs.ts";
import { browserMissing, launch, OUTPUT_DIR, watchForScripts } from "./browser.ts";
import { layoutProblems } from "./layout.ts";
import { JOB_ID, seedPlots } from "./plots_fixture.ts";

const ROUTED = "openrouter/deepseek/deepseek-v4-flash";
const EPISODE = "/home/someone/projects/spot-demo/episodes/fix-the-add-function-and-its-test.jsonl";

Deno.test({
  name: "the dashboard names spot's version, sets `after` as code, and shows each run's whole model",
  ignore: browserMissing(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const home = await fixtureHome();
    await seedPlots(home.paths);
    await writeFixtureRun(home.paths, fixtureState("run-routed", { profile: "cheap", model: ROUTED }));
    await writeFixtureRun(home.paths, fixtureState("run-episode", { profile: "replay", model: EPISODE }));
    const server = startServer({ ...home, host: "127.0.0.1", port: 0 });
    await Deno.mkdir(OUTPUT_DIR, { recursive: true });
    const browser = await launch();
    try {
      const page = await browser.context.newPage();
      const injected = await watchForScripts(page);

      await t.step("/health names the version deno.json holds", async () => {
        await page.goto(`${server.url}health`);
        const health = JSON.parse(await page.innerText("body"));
        assert.equal(health.version, config.version);
        assert.match(health.version, /^\d+\.\d+\.\d+/);
      });

      await t.step(
        "the run table shows the whole model, cut in the middle only when long, whole on hover",
        async () => {
          for (const width of [1400, 420]) {
            await page.setViewportSize({ width, height: 900 });
            await page.goto(server.url);
            const model = (id: string) =>
              page.$eval(`tr[data-run="${id}"] .model`, (el) => ({
                shown: el.textContent ?? "",
                title: el.getAttribute("title") ?? "",
              }));
            assert.deepEqual(await model("run-routed"), { shown: ROUTED, title: ROUTED });
            const episode = await model("run-episode");
            assert.equal(episode.title, EPISODE, "the whole name on hover");
            assert.ok(episode.shown.length <= 48 && episode.shown.includes("…"), episode.shown);
            assert.ok(episode.shown.startsWith("/home/someone/"), episode.shown);
            assert.ok(episode.shown.endsWith("its-test.jsonl"), episode.shown);
            const problems = (await layoutProblems(page, "table.runs")).filter((p) => p.includes(".model"));
            assert.deepEqual(problems, [], `at ${width} px`);
          }
        },
      );

      await t.step("the job timeline's caption sets after as code, with no backtick left", async () => {
        await page.setViewportSize({ width: 1400, height: 900 });
        await page.goto(`${server.url}jobs/${JOB_ID}`);
        const figure = `#timeline-${JOB_ID}`;
        const caption = await page.innerText(`${figure} figcaption`);
        assert.ok(!caption.includes("`"), caption);
        assert.match(caption, /each task's wait for its after, then its run's phases/);
        assert.deepEqual(await page.$$eval(`${figure} figcaption code`, (c) => c.map((e) => e.textContent)), [
          "after",
        ]);
        assert.ok(!(await page.innerText(`${figure} .chart-summary`)).includes("`"), "the summary");
        await page.screenshot({ path: join(OUTPUT_DIR, "dashboard-newcomer-job.png"), fullPage: true });
      });
      assert.deepEqual(await injected(), []);
    } finally {
      await browser.close();
      await server.stop();
      await home.cleanup();
    }
  },
});
