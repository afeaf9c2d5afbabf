/**
 * The dashboard in a real headless Chromium: it loads, a run started while
 * the page is open appears without a reload, the filters and the detail row
 * work, and worker-written payloads run no script, live or in the snapshot.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { fixtureHome, fixtureState, writeFixtureRun } from "../fixture_runs.ts";
import { startServer } from "../../serve/server.ts";
import { writeSnapshot } from "../../serve/snapshot.ts";
import { writeFixtureJob } from "../jobs/job_fixture.ts";
import { browserMissing, launch, OUTPUT_DIR, watchForScripts } from "./browser.ts";

const IMG = `<img src=x onerror="window.__xss='img'">`;
const SCRIPT = `</script><script>window.__xss='script'</script>`;
const URL_PAYLOAD = `javascript:window.__xss='url'`;
const BREAKOUT = `"><svg onload="window.__xss='svg'">`;
const ALL = `${IMG} ${SCRIPT} ${URL_PAYLOAD} ${BREAKOUT}`;

function event(runId: string, fields: Record<string, unknown>): string {
  return JSON.stringify({ at: new Date().toISOString(), runId, ...fields }) + "\n";
}

async function seedRuns(paths: Parameters<typeof writeFixtureRun>[0]): Promise<void> {
  const callers = ["codex", "cli", "claude-code", "codex"] as const;
  const statuses = ["integrated", "failed", "integrated", "blocked"] as const;
  for (let i = 0; i < 4; i++) {
    await writeFixtureRun(
      paths,
      fixtureState(
        `run-plain-${i}`,
        { caller: callers[i], status: statuses[i] },
        `2025-01-0${i + 1}T00:00:00.000Z`,
      ),
    );
  }
  await writeFixtureRun(
    paths,
    fixtureState("run-xss", {
      caller: "codex",
      status: "blocked",
      profile: `p${IMG}`,
      model: `m/${SCRIPT}`,
      failure: { code: "SECURITY_BLOCKED", message: ALL },
      transitions: [{ from: null, to: "prepared", at: "2025-01-05T00:00:00.000Z", reason: ALL }],
    }, "2025-01-05T00:00:00.000Z"),
    {
      goal: `Fix it ${ALL}`,
      verification: {
        passed: false,
        commands: [{
          argv: ["deno", "test", IMG],
          passed: false,
          exitCode: 1,
          timedOut: false,
          durationMs: 10,
        }],
        security: {
          passed: false,
          issues: [{ code: "SCOPE", file: `src/${IMG}.ts`, message: `outside scope ${SCRIPT}` }],
          changedFiles: [`src/${IMG}.ts`, `${URL_PAYLOAD}`, `a${BREAKOUT}.ts`],
        },
      },
      selfReview: { summary: `all good ${ALL}`, acceptanceEvidence: [{ criterion: IMG, status: SCRIPT }] },
      review: {
        verdict: "revise",
        summary: ALL,
        findings: [{ priority: "P1", file: URL_PAYLOAD, line: 1, problem: IMG }],
      },
      workerLog: `10:00:00 [run] says: ${ALL}\n10:00:01 [run] tool write {"path":"${BREAKOUT}"}\n`,
    },
  );
}

/** Polls from the test side: the page's CSP forbids the string evaluation waitForFunction would use. */
async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function rows(page: Page): Promise<{ id: string; caller: string; status: string }[]> {
  return await page.$$eval("tr.run", (trs) =>
    trs.map((tr) => ({
      id: tr.getAttribute("data-run") ?? "",
      caller: tr.getAttribute("data-caller") ?? "",
      status: tr.getAttribute("data-status") ?? "",
    })));
}

Deno.test({
  name: "the live dashboard updates from pushed events, filters, expands, and runs no injected script",
  ignore: browserMissing(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const home = await fixtureHome();
    await seedRuns(home.paths);
    const server = startServer({ ...home, host: "127.0.0.1", port: 0, pollMs: 100 });
    await Deno.mkdir(OUTPUT_DIR, { recursive: true });
    const browser = await launch();
    try {
      const page = await browser.context.newPage();
      const injected = await watchForScripts(page);

      await t.step("the detector notices a script that does run", async () => {
        const probe = await browser.context.newPage();
        const seen = await watchForScripts(probe);
        await probe.setContent(`<p>unescaped</p>${IMG}`);
        await probe.waitForFunction(() => (globalThis as { __xss?: unknown }).__xss !== undefined);
        assert.ok((await seen()).some((s) => s.includes("__xss was set")));
        await probe.close();
      });

      await t.step("the page loads with every run and connects to the event stream", async () => {
        await page.goto(server.url);
        assert.equal(await page.title(), "spot dashboard");
        assert.equal((await rows(page)).length, 5);
        assert.equal(await page.getAttribute("#plots", "data-runs"), "5");
        await page.waitForSelector("#live-status.on", { timeout: 10_000 });
        assert.equal(await page.textContent("#live-status"), "live");
      });

      await t.step("a run started while the page is open appears without a reload", async () => {
        await page.evaluate(() => (globalThis as { __sameDocument?: boolean }).__sameDocument = true);
        const now = new Date().toISOString();
        await writeFixtureRun(
          home.paths,
          fixtureState("run-live", { status: "running", caller: "cli" }, now),
          {
            events: [
              JSON.parse(
                event("run-live", { type: "transition", from: null, to: "prepared", reason: "new" }),
              ),
            ],
            workerLog: "",
          },
        );
        await page.waitForSelector('tr[data-run="run-live"]', { timeout: 10_000 });
        // Its first transition redraws the plots too: six runs counted where there were five (this one is
        // a year newer than the others, so they move out of the plotted periods into the older count).
        const counted = async () =>
          Number(await page.getAttribute("#plots", "data-runs")) +
          Number(await page.getAttribute("#plots", "data-older"));
        await until(async () => await counted() === 6);
        assert.equal(
          await page.evaluate(() => (globalThis as { __sameDocument?: boolean }).__sameDocument),
          true,
        );
      });

      await t.step("an expanded active run's log follows new worker output", async () => {
        await page.click('a[data-expand="run-live"]');
        await page.waitForSelector('pre[data-log="run-live"]');
        await Deno.writeTextFile(
          join(home.paths.runsDir, "run-live", "events.jsonl"),
          event("run-live", { type: "worker_text", phase: "run", text: "halfway \x1b[1mthere\x1b[0m" }),
          { append: true },
        );
        const log = page.locator('pre[data-log="run-live"]');
        await until(async () => ((await log.textContent()) ?? "").includes("says: halfway there"));
        await page.click('a[data-expand="run-live"]');
        await page.waitForSelector('pre[data-log="run-live"]', { state: "detached" });
      });

      await t.step("the caller and status filters show only matching runs", async () => {
        await page.selectOption("#filter-caller", "codex");
        await until(async () => (await page.locator("tr.run").count()) === 3);
        assert.deepEqual(new Set((await rows(page)).map((r) => r.caller)), new Set(["codex"]));
        await page.selectOption("#filter-status", "blocked");
        await until(async () => (await page.locator("tr.run").count()) === 2);
        assert.deepEqual((await rows(page)).map((r) => r.id).sort(), ["run-plain-3", "run-xss"]);
        assert.match(page.url(), /caller=codex&status=blocked/);
        await page.reload();
        assert.equal((await rows(page)).length, 2, "the view survives a reload");
      });

      await t.step("the detail row expands and shows worker text as text", async () => {
        await page.click('a[data-expand="run-xss"]');
        await page.waitForSelector("#detail-run-xss");
        const detail = await page.textContent("#detail-run-xss") ?? "";
        for (const payload of [IMG, SCRIPT, URL_PAYLOAD]) {
          assert.ok(detail.includes(payload), `shows ${payload}`);
        }
        assert.match(detail, /deno test/);
        assert.match(detail, /revise/);
        // The charts' own SVG (class "plot") and legend swatches are the only pictures on the page.
        assert.ok(await page.locator("svg.plot").count() > 0, "the charts are drawn");
        assert.equal(
          await page.locator("img, svg:not(.plot):not(.swatch > svg), a[href^='javascript']").count(),
          0,
        );
        await page.screenshot({ path: join(OUTPUT_DIR, "dashboard.png"), fullPage: true });
      });

      await t.step("no injected script ran and the CSP was never needed", async () => {
        await page.focus("body");
        await page.evaluate(() => dispatchEvent(new Event("focus")));
        await page.waitForTimeout(300);
        assert.deepEqual(await injected(), []);
      });

      await t.step("the page fits a phone's width", async () => {
        const phone = await browser.context.newPage();
        await phone.setViewportSize({ width: 390, height: 844 });
        await phone.goto(`${server.url}?expand=run-xss`);
        const overflow = await phone.evaluate(() => {
          const w = globalThis as unknown as {
            innerWidth: number;
            document: { documentElement: { scrollWidth: number } };
          };
          return w.document.documentElement.scrollWidth - w.innerWidth;
        });
        assert.ok(overflow <= 1, `page is ${overflow}px wider than the phone`);
        await phone.screenshot({ path: join(OUTPUT_DIR, "dashboard-phone.png"), fullPage: true });
        await phone.close();
      });

      await t.step("the snapshot file works offline and runs no injected script", async () => {
        const file = join(home.root, "snapshot.html");
        await writeSnapshot({ ...home, output: file });
        const snap = await browser.context.newPage();
        const seen = await watchForScripts(snap);
        await snap.goto(pathToFileURL(file).href);
        assert.equal(await snap.isVisible("#detail-run-xss"), false, "details start folded");
        await snap.click('a[data-expand="run-xss"]');
        assert.equal(await snap.isVisible("#detail-run-xss"), true);
        await snap.selectOption("#filter-caller", "cli");
        assert.deepEqual(
          await snap.$$eval("tr.run:not([hidden])", (trs) => trs.map((t) => t.getAttribute("data-caller"))),
          ["cli", "cli"],
        );
        assert.deepEqual(await seen(), []);
        await snap.close();
      });

      await t.step(
        "the snapshot holds the jobs, and a job task's run link opens that run's details",
        async () => {
          const jobId = "job-20260101-000000-abcdef";
          await writeFixtureJob(home.paths, {
            jobId,
            status: "running",
            allowWrites: true,
            tasks: [{ id: "api", role: "builder" }, { id: "review", role: "reviewer", after: ["api"] }],
            records: { api: { state: "succeeded", runId: "run-xss" } },
          });
          const file = join(home.root, "snapshot-jobs.html");
          assert.equal((await writeSnapshot({ ...home, output: file })).jobs, 1);
          const snap = await browser.context.newPage();
          const seen = await watchForScripts(snap);
          await snap.goto(pathToFileURL(file).href);
          assert.deepEqual(
            await snap.$$eval(
              `#job-${jobId} tr.job-task`,
              (trs) => trs.map((t) => t.getAttribute("data-state")),
            ),
            ["succeeded", "queued"],
          );
          assert.equal(await snap.isVisible("#detail-run-xss"), false, "details start folded");
          await snap.click('a[data-show="run-xss"]');
          assert.equal(
            await snap.isVisible("#detail-run-xss"),
            true,
            "the task's run link did not open its details",
          );
          assert.equal(await snap.getAttribute('a[data-expand="run-xss"]', "aria-expanded"), "true");
          assert.deepEqual(await seen(), []);
          await snap.close();
        },
      );
    } finally {
      await browser.close();
      await server.stop();
      await home.cleanup();
    }
  },
});
