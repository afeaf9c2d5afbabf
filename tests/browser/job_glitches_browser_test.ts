/**
 * Two job-page glitches, asserted in a real Chromium at 1400 and 420 px: a job with landed work never says
 * "Integration: not yet" (it names each landed builder and its commit, the hash on one line), and a task whose
 * run was never created says so instead of "could not be read". Each is shown failing first: the same page
 * before the landing is recorded does say "not yet", so the assertion can tell the two apart.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { fixtureHome } from "../fixture_runs.ts";
import { startServer } from "../../serve/server.ts";
import { updateJob } from "../../graphs/store.ts";
import { writeFixtureJob } from "../jobs/job_fixture.ts";
import { browserMissing, launch } from "./browser.ts";
import { layoutProblems } from "./layout.ts";

const J = "job-20250104-000000-dddddd";
const C1 = "a1b2c3d4e5".repeat(4);

const integrationText = (page: Page) =>
  page.$eval("dd.job-integration", (el) => (el as unknown as { innerText: string }).innerText);

Deno.test({
  name: "the job page names what landed and a run never created, in a real browser at two widths",
  ignore: browserMissing(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const home = await fixtureHome();
    await writeFixtureJob(home.paths, {
      jobId: J,
      allowWrites: true,
      tasks: [{ id: "api", role: "builder" }, { id: "ui", role: "builder", after: ["api"] }],
      records: {
        api: { state: "succeeded", runId: `${J}.api` },
        ui: { state: "failed", runId: `${J}.ui`, reason: "its launch failed" },
      },
      status: "failed",
    });
    const server = startServer({ ...home, host: "127.0.0.1", port: 0, pollMs: 100 });
    const browser = await launch();
    try {
      const page = await browser.context.newPage();
      await page.goto(`${server.url}jobs/${J}`);
      assert.match(await integrationText(page), /not yet/, "before any landing the page says not yet");

      await updateJob(home.paths, J, (_, s) => ({
        state: {
          ...s,
          integration: {
            mode: "commit" as const,
            at: "2025-01-04T00:02:00.000Z",
            onto: "0".repeat(40),
            commits: [{ task: "api", runId: `${J}.api`, commit: C1 }],
            integratedChecks: "passed" as const,
          },
        },
      }));
      for (const width of [1400, 420]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.url}jobs/${J}`);
        const shown = await integrationText(page);
        assert.doesNotMatch(shown, /not yet/, `${width} px: landed work is never "not yet"`);
        assert.match(shown, /landed/, `${width} px`);
        assert.match(
          shown,
          new RegExp(`api\\s+${C1.slice(0, 12)}`),
          `${width} px: the builder and its commit`,
        );
        const hashLines = await page.$eval("dd.job-integration code", (el) => {
          const r = (el as unknown as { getClientRects(): ArrayLike<unknown> }).getClientRects();
          return r.length;
        });
        assert.equal(hashLines, 1, `${width} px: the commit hash sits on one line`);

        await page.goto(`${server.url}jobs/${J}?task=ui`);
        const run = await page.$eval(
          "#task-run",
          (el) => (el as unknown as { innerText: string }).innerText,
        );
        assert.match(run, /has not been created: task ui is failed \(its launch failed\)/, `${width} px`);
        assert.doesNotMatch(run, /could not be read/, `${width} px`);
        assert.deepEqual(await layoutProblems(page), [], `${width} px: layout`);
      }
    } finally {
      await browser.close();
      await server.stop();
      await home.cleanup();
    }
  },
});
