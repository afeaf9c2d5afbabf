/**
 * The plots and the glitch fixes in a real headless Chromium, at 1400 px and at 420 px: the runs page, a job
 * page and the offline file each show their charts, each chart's numbers (its table and the titles of its
 * marks) equal what the JSON API says, nothing is wider than its box or cut, step numbers stay whole, hashes
 * stay on one line, error codes break only between words, and a replay-only user sees no red in
 * Connections. Chromium's own `--virtual-time-budget` snapshot finishes on each page. One browser launch.
 * Screenshots: test-output/plots-*.png.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { Config } from "../../schemas/config.ts";
import { DEFAULT_CONFIG } from "../../config/defaults.ts";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { startServer } from "../../serve/server.ts";
import { writeSnapshot } from "../../serve/snapshot.ts";
import { fixtureHome } from "../fixture_runs.ts";
import { browserMissing, CHROMIUM, launch, OUTPUT_DIR, watchForScripts } from "./browser.ts";
import { layoutProblems, lineProblems, stepProblems } from "./layout.ts";
import {
  type ApiRun,
  type ApiSegment,
  type ApiTask,
  checkClockTicks,
  checkOneDay,
  expectedCells,
  money,
  phasesFromTransitions,
  shownChart,
  shownTitles,
  tableRows,
  titleOf,
} from "./plot_data.ts";
import { JOB_ID, LONG_RUN, seedPlots, seedReplayOnly } from "./plots_fixture.ts";

const WIDTHS = [1400, 420] as const;
/** A snapshot of a page that settles takes a few seconds; one that never settles hits this. */
const SNAPSHOT_LIMIT_MS = 60_000;

// deno-lint-ignore no-explicit-any
async function json(url: string): Promise<any> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return await res.json();
}

/** Every chart over time and the profile comparison hold the API's numbers. */
async function checkRunCharts(page: Page, runs: ApiRun[], where: string): Promise<void> {
  for (const plot of ["avoided", "cost", "outcomes"]) {
    const shown = await shownChart(page, `figure[data-plot="${plot}"]`);
    assert.ok(["day", "week"].includes(shown.bucket), `${where}: ${plot} names its period`);
    const expected = expectedCells(runs, plot, shown.bucket);
    assert.deepEqual(
      Object.keys(shown.table).sort(),
      [...expected.keys()].sort(),
      `${where}: the ${plot} table's cells`,
    );
    for (const [cell, value] of expected) {
      assert.ok(
        Math.abs(shown.table[cell] - value) < 1e-9,
        `${where}: ${plot} ${cell} is ${shown.table[cell]}, not ${value}`,
      );
    }
    assert.equal(shown.hidden, false, `${where}: the ${plot} chart is not on screen`);
    assert.deepEqual(
      [...shown.titles].sort(),
      [...expected].map(([cell, v]) => titleOf(plot, cell, v)).sort(),
      `${where}: the ${plot} chart's marks`,
    );
  }
  const byProfile = new Map<string, ApiRun[]>();
  for (const r of runs) byProfile.set(r.profile, [...(byProfile.get(r.profile) ?? []), r]);
  const rows = await tableRows(page, 'figure[data-plot="profiles"]');
  assert.deepEqual(
    rows.map((r) => r.profile).sort(),
    [...byProfile.keys()].sort(),
    `${where}: profiles compared`,
  );
  for (const row of rows) {
    const mine = byProfile.get(row.profile)!;
    assert.equal(Number(row.runs), mine.length);
    assert.ok(Math.abs(Number(row.cost) - mine.reduce((n, r) => n + r.costUsd, 0)) < 1e-9);
    assert.equal(Number(row.verified), mine.filter((r) => r.verificationPassed !== null).length);
    assert.equal(Number(row.passed), mine.filter((r) => r.verificationPassed === true).length);
  }
  const marks = await shownTitles(page, 'figure[data-plot="profiles"]');
  for (const [profile, mine] of byProfile) {
    const perRun = money(mine.reduce((n, r) => n + r.costUsd, 0) / mine.length);
    assert.ok(
      marks.includes(`${profile}: ${perRun} per run over ${mine.length} run(s)`),
      `${where}: ${profile} cost bar`,
    );
  }
}

/** The run's time per status equals its transitions in `/api/runs/RUN`. */
async function checkPhases(page: Page, base: string, where: string): Promise<void> {
  const api = (await json(`${base}api/runs/${LONG_RUN}`)).run;
  const expected = phasesFromTransitions(api.transitions);
  assert.deepEqual(new Map(api.phases.map((p: { phase: string; ms: number }) => [p.phase, p.ms])), expected);
  const rows = await tableRows(page, `#phases-${LONG_RUN}`);
  assert.deepEqual(new Map(rows.map((r) => [r.phase, Number(r.ms)])), expected, `${where}: the phase table`);
  const titles = await shownTitles(page, `#phases-${LONG_RUN}`);
  assert.deepEqual(
    titles.map((t) => Number(/\((\d+) ms\)$/.exec(t)?.[1])).sort(),
    [...expected.values()].sort(),
    `${where}: the phase bars`,
  );
}

/** The timeline equals the job API's segments, which agree with the tasks' own times. */
async function checkTimeline(page: Page, base: string, where: string): Promise<void> {
  const job = (await json(`${base}api/jobs/${JOB_ID}`)).job;
  const tasks: ApiTask[] = job.tasks;
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const events: { type: string; state: string; at: string }[] = job.events;
  const started = Date.parse(events.find((e) => e.type === "job" && e.state === "running")!.at);
  const expected: string[] = [];
  const sum = (list: ApiSegment[]) => list.reduce((n, s) => n + s.ms, 0);
  for (const t of tasks) {
    const ready = t.after.length
      ? Math.max(...t.after.map((a: string) => Date.parse(byId.get(a)!.endedAt)))
      : started;
    const wait = t.segments.find((s) => s.kind === "wait");
    assert.equal(
      wait ? Date.parse(wait.start) : Date.parse(t.startedAt),
      Math.min(ready, Date.parse(t.startedAt)),
    );
    const busy = t.segments.filter((s) => s.kind !== "wait");
    assert.equal(busy[0].start, new Date(t.startedAt).toISOString(), `${t.id} starts when its record says`);
    assert.equal(sum(busy), t.elapsedMs, `${t.id}'s time adds up`);
    const checks = phasesFromTransitions(t.transitions).get("verifying") ?? 0;
    assert.equal(sum(busy.filter((s) => s.kind === "checks")), checks, `${t.id}'s checks`);
    for (const s of t.segments) expected.push(`${t.id} ${s.kind} ${s.start} ${s.end} ${s.ms}`);
  }
  const rows = await tableRows(page, `#timeline-${JOB_ID}`);
  assert.deepEqual(
    rows.map((r) => `${r.task} ${r.kind} ${r.start} ${r.end} ${r.ms}`),
    expected,
    `${where}: timeline`,
  );
  const titles = await shownTitles(page, `#timeline-${JOB_ID}`);
  assert.deepEqual(
    titles.map((t) => t.replace(/: .*\((\d+) ms\)$/, " $1")).sort(),
    rows.map((r) => `${r.task} · ${r.kind} ${r.ms}`).sort(),
    `${where}: the timeline's bars`,
  );
  await checkClockTicks(page, `#timeline-${JOB_ID}`, where);
}

/** Layout, and (where runs are listed) the hashes and error codes on screen. */
async function checkGlitches(page: Page, where: string, runsShown: boolean): Promise<void> {
  assert.deepEqual(await layoutProblems(page), [], `${where}: layout`);
  assert.deepEqual(await stepProblems(page), [], `${where}: step numbers`);
  for (const kind of ["hash", "code"] as const) {
    const { seen, problems } = await lineProblems(page, kind);
    assert.deepEqual(problems, [], `${where}: ${kind}`);
    assert.equal(seen > 0, runsShown, `${where}: ${seen} ${kind}(es) on screen`);
  }
}

/** Chromium's own snapshot, the way people take one: it must finish, and hold the charts. */
async function headlessSnapshot(url: string): Promise<string> {
  const profile = await Deno.makeTempDir({ prefix: "spot-vtb-" });
  try {
    const t0 = Date.now();
    const r = await spawnProcess([
      CHROMIUM,
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      `--user-data-dir=${profile}`,
      "--virtual-time-budget=5000",
      "--dump-dom",
      url,
    ], {
      timeoutMs: SNAPSHOT_LIMIT_MS,
      maxOutputChars: 20_000_000,
      env: { HOME: profile, PATH: "/usr/bin:/bin" },
    });
    assert.equal(r.timedOut, false, `${url} never settled under --virtual-time-budget`);
    assert.ok(Date.now() - t0 < SNAPSHOT_LIMIT_MS);
    return r.stdout;
  } finally {
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

Deno.test({
  name:
    "plots on the runs page, a job page and the offline file match the API, fit 1400 px and 420 px, and settle",
  ignore: browserMissing(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const home = await fixtureHome();
    const calm = await fixtureHome();
    await seedPlots(home.paths);
    await seedReplayOnly(calm.paths);
    const server = startServer({ ...home, host: "127.0.0.1", port: 0 });
    const calmServer = startServer({
      ...calm,
      config: Config.parse(DEFAULT_CONFIG),
      host: "127.0.0.1",
      port: 0,
    });
    const file = join(home.root, "dashboard.html");
    await writeSnapshot({ ...home, output: file });
    await Deno.mkdir(OUTPUT_DIR, { recursive: true });
    const browser = await launch();
    try {
      const runs: ApiRun[] = (await json(`${server.url}api/runs?limit=500`)).runs;
      assert.equal(runs.length, 10);
      for (const width of WIDTHS) {
        const page = await browser.context.newPage();
        await page.setViewportSize({ width, height: 900 });
        const injected = await watchForScripts(page);
        await t.step(`the runs page at ${width} px`, async () => {
          await page.goto(`${server.url}?expand=${LONG_RUN}`);
          await checkRunCharts(page, runs, `runs page ${width}`);
          await checkPhases(page, server.url, `runs page ${width}`);
          await checkGlitches(page, `runs page ${width}`, true);
          await page.screenshot({ path: join(OUTPUT_DIR, `plots-runs-${width}.png`), fullPage: true });
        });
        await t.step(`a job page at ${width} px`, async () => {
          await page.goto(`${server.url}jobs/${JOB_ID}`);
          await checkTimeline(page, server.url, `job page ${width}`);
          await checkGlitches(page, `job page ${width}`, false);
          await page.screenshot({ path: join(OUTPUT_DIR, `plots-job-${width}.png`), fullPage: true });
        });
        await t.step(`the offline file at ${width} px`, async () => {
          await page.goto(pathToFileURL(file).href);
          await checkRunCharts(page, runs, `offline file ${width}`);
          await checkTimeline(page, server.url, `offline file ${width}`);
          assert.deepEqual(
            await page.$$eval("a[data-expand]", (as) => [...new Set(as.map((a) => a.textContent))]),
            ["▸"],
            "folded rows show ▸",
          );
          await checkGlitches(page, `offline file ${width}`, true);
          // The graph is a picture whose boxes are links: a task's run opens in the file, no server needed.
          const boxes = page.locator(`#graph-${JOB_ID} .chart-svg a[href="#detail-${JOB_ID}.api"]`);
          assert.equal(await boxes.count() > 0, true, "the api task's box links to its run");
          assert.equal(await page.isVisible(`#detail-${JOB_ID}\\.api`), false);
          await boxes.first().click();
          assert.equal(
            await page.isVisible(`#detail-${JOB_ID}\\.api`),
            true,
            "the box opened the task's run",
          );
          await page.screenshot({ path: join(OUTPUT_DIR, `plots-offline-${width}.png`), fullPage: true });
        });
        assert.deepEqual(await injected(), [], `no script error or CSP violation at ${width} px`);
        await page.close();
      }

      await t.step("a replay-only user sees a calm Connections panel", async () => {
        const page = await browser.context.newPage();
        await page.setViewportSize({ width: 1400, height: 900 });
        await page.goto(calmServer.url);
        await page.waitForSelector("#connections-body table");
        assert.deepEqual(
          await page.$$eval("#connections-panel .bad", (els) => els.map((e) => e.textContent)),
          [],
        );
        assert.equal(
          await page.locator("#connections-panel code.hint").count(),
          0,
          "no export line to act on",
        );
        const available =
          (await page.getAttribute("#connections-panel [data-available]", "data-available")) ?? "";
        assert.ok(available.split(" ").includes("pi"), `pi is listed as available to install: ${available}`);
        assert.deepEqual(await layoutProblems(page, "#connections-panel"), []);
        await checkOneDay(page);
        await page.close();
      });

      await t.step("Chromium's --virtual-time-budget snapshot settles on each page", async () => {
        for (
          const url of [
            `${server.url}?static=1`,
            `${server.url}jobs/${JOB_ID}?static=1`,
            pathToFileURL(file).href,
          ]
        ) {
          const dom = await headlessSnapshot(url);
          assert.match(dom, /data-plot="(cost|timeline)"/, `${url} has its charts`);
        }
      });
    } finally {
      await browser.close();
      await server.stop();
      await calmServer.stop();
      await home.cleanup();
      await calm.cleanup();
    }
  },
});
