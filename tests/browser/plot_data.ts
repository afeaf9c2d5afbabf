/**
 * The plots' numbers twice: computed here from the JSON API (`/api/runs`, `/api/runs/RUN`, `/api/jobs/JOB`)
 * with this file's own arithmetic, and read back from a page (each chart's table and the `<title>` of each of
 * its marks in the picture the page shows), so a test can hold one to the other.
 */
// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { join } from "node:path";
import { OUTPUT_DIR } from "./browser.ts";
import { layoutProblems } from "./layout.ts";

export interface ApiRun {
  runId: string;
  createdAt: string;
  profile: string;
  adapter: string;
  status: string;
  failure: string | null;
  costUsd: number;
  parentTokensAvoided: number;
  verificationPassed: boolean | null;
}

export interface ApiSegment {
  kind: string;
  start: string;
  end: string;
  ms: number;
}

export interface ApiTask {
  id: string;
  after: string[];
  startedAt: string;
  endedAt: string;
  elapsedMs: number;
  transitions: { to: string; at: string }[];
  segments: ApiSegment[];
}

const IN_FLIGHT = new Set(["prepared", "running", "verifying", "selfReviewing", "reviewing", "revising"]);

/** A UTC day, or the Monday of its UTC week. */
export function period(iso: string, by: string): string {
  const d = new Date(iso);
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  if (by === "week") day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

export function outcome(r: ApiRun): string {
  if (r.failure) return r.failure;
  if (r.verificationPassed === true) return "checks passed";
  if (r.verificationPassed === false) return "checks failed";
  return IN_FLIGHT.has(r.status) ? "in progress" : "not verified";
}

export const money = (n: number) => `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`;
const tokens = (n: number) => Math.round(n).toLocaleString("en-US");

/** Each (period, series) cell of a chart over time, from the API's runs. */
export function expectedCells(runs: ApiRun[], plot: string, by: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of runs) {
    const key = plot === "outcomes" ? outcome(r) : r.profile;
    const value = plot === "cost" ? r.costUsd : plot === "avoided" ? r.parentTokensAvoided : 1;
    const cell = `${period(r.createdAt, by)} · ${key}`;
    out.set(cell, (out.get(cell) ?? 0) + value);
  }
  for (const [k, v] of out) if (v === 0) out.delete(k);
  return out;
}

/** How a chart's mark titles write a cell's value. */
export function titleOf(plot: string, cell: string, value: number): string {
  return `${cell}: ${plot === "cost" ? money(value) : plot === "avoided" ? tokens(value) : String(value)}`;
}

export interface ShownChart {
  bucket: string;
  /** The table's cells, `period · series` to the exact value. */
  table: Record<string, number>;
  /** The titles of the marks in the picture on screen. */
  titles: string[];
  /** Figures whose picture is not visible at this width. */
  hidden: boolean;
}

/** A chart over time as the page shows it. */
export function shownChart(page: Page, selector: string): Promise<ShownChart> {
  return page.evaluate((selector) => {
    const doc = (globalThis as any).document;
    const fig = doc.querySelector(selector);
    if (!fig) throw new Error(`no ${selector} on the page`);
    const table: Record<string, number> = {};
    for (const tr of fig.querySelectorAll("tr[data-bucket]")) {
      table[`${tr.getAttribute("data-bucket")} · ${tr.getAttribute("data-key")}`] = Number(
        tr.getAttribute("data-value"),
      );
    }
    const pictures = [...fig.querySelectorAll(".chart-svg")].filter((p: any) =>
      p.getClientRects().length > 0
    );
    const titles = pictures.flatMap((p: any) =>
      [...p.querySelectorAll("svg title")].map((t: any) => t.textContent)
    );
    return { bucket: fig.getAttribute("data-bucket") ?? "", table, titles, hidden: pictures.length === 0 };
  }, selector);
}

/** Rows of a figure's table as plain objects of their `data-*` attributes. */
export function tableRows(page: Page, selector: string): Promise<Record<string, string>[]> {
  return page.$$eval(`${selector} tbody tr`, (trs) =>
    trs.map((tr) => {
      const out: Record<string, string> = {};
      for (const a of (tr as any).attributes) if (a.name.startsWith("data-")) out[a.name.slice(5)] = a.value;
      return out;
    }));
}

/** The titles of the marks in a figure's visible picture. */
export function shownTitles(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(
    `${selector} .chart-svg svg title`,
    (ts) =>
      ts.filter((t) => (t as any).closest(".chart-svg").getClientRects().length > 0).map((t) =>
        t.textContent ?? ""
      ),
  );
}

/** Milliseconds in each status from a run's transitions: each lasts until the next. */
export function phasesFromTransitions(list: { to: string; at: string }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i + 1 < list.length; i++) {
    const ms = Date.parse(list[i + 1].at) - Date.parse(list[i].at);
    out.set(list[i].to, (out.get(list[i].to) ?? 0) + ms);
  }
  return out;
}

/** The x-axis tick labels a chart shows (the narrow or wide drawing, whichever is on screen). */
export function axisTicks(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(
    `${selector} svg [aria-label="x-axis tick label"] text`,
    (ts) => ts.filter((t) => t.getClientRects().length > 0).map((t) => t.textContent ?? ""),
  );
}

/**
 * One day of free runs: the charts' text fits (a cost axis of zeros cut its last label), and a per-day axis
 * names days, not the hours of the one day it holds.
 */
export async function checkOneDay(page: Page): Promise<void> {
  await page.waitForSelector('figure[data-plot="cost"] svg');
  assert.deepEqual(await layoutProblems(page, "#plots-panel"), []);
  for (const plot of ["avoided", "cost", "outcomes"]) {
    const ticks = await axisTicks(page, `figure[data-plot="${plot}"] .chart-wide`);
    assert.ok(ticks.length > 1, `${plot}: ticks ${ticks}`);
    assert.deepEqual(ticks.filter((t) => /AM|PM|:/.test(t)), [], `${plot}: day ticks, not hours`);
  }
  await page.screenshot({ path: join(OUTPUT_DIR, "plots-one-day.png"), fullPage: true });
}

/** A job within one day is read on a clock: every tick a time of day on one line, no "AM" below it. */
export async function checkClockTicks(page: Page, selector: string, where: string): Promise<void> {
  const ticks = await axisTicks(page, selector);
  assert.ok(ticks.length > 1 && ticks.every((t) => /^\d\d:\d\d$/.test(t)), `${where}: clock ticks ${ticks}`);
}
