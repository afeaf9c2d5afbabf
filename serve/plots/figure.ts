/**
 * One chart on a page: its title, the picture at two widths (CSS shows the one that fits), a sentence that
 * says what it shows, a legend, and its numbers as a table (the text alternative, folded). The charts
 * module and the plotting library load on the first chart drawn, never for a verb that draws none.
 */
import { html, raw } from "hono/html";
import { lazy } from "../../base/lazy.ts";
import type { Html } from "../views/format.ts";
import type { Drawn } from "./charts.ts";

let runCharts: Promise<typeof import("./charts.ts")> | null = null;
let jobCharts: Promise<typeof import("./task_charts.ts")> | null = null;

/** The runs page's charts, imported once. */
export function charts(): Promise<typeof import("./charts.ts")> {
  runCharts ??= lazy<typeof import("./charts.ts")>("./charts.ts", import.meta.url);
  return runCharts;
}

/** A run's and a job's charts, imported once. */
export function taskCharts(): Promise<typeof import("./task_charts.ts")> {
  jobCharts ??= lazy<typeof import("./task_charts.ts")>("./task_charts.ts", import.meta.url);
  return jobCharts;
}

/** Loads every chart module (once); `spot serve` starts it early, so the first page does not wait for it. */
export async function loadCharts(): Promise<void> {
  await Promise.all([charts(), taskCharts()]);
}

/** Starts loading the charts in the background. */
export function preloadCharts(): void {
  loadCharts().catch(() => {});
}

export interface LegendItem {
  name: string;
  color: string;
}

export interface FigureSpec {
  /** The figure's `data-plot` name (`cost`, `timeline`, …). */
  name: string;
  /** Its id on the page; `plot-<name>` unless one page holds several of a name. */
  id?: string;
  /** Left empty when a heading above already names the chart. */
  title: string;
  /** What the axes and colours are: "per day, stacked by profile". */
  note: string;
  /** The text alternative in one or two sentences. */
  summary: string;
  legend?: readonly LegendItem[];
  /** The numbers behind the chart. */
  table: Html;
  /** Extra `data-*` facts for tests and scripts, such as the period size. */
  data?: Record<string, string>;
}

function swatch(item: LegendItem): Html {
  // A presentation attribute, not a style: allowed by the pages' content security policy.
  return html`
    <span
      class="swatch"><svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" fill="${item
        .color}"></rect></svg>${item.name}</span>
  `;
}

/** A note or summary as a reader sees it: a name in backticks (`after`) set as code, the rest as text. */
export function prose(text: string): Html[] {
  return text.split(/`([^`]+)`/).map((part, i) => i % 2 === 1 ? html`<code>${part}</code>` : html`${part}`);
}

/** The figure; `drawn` holds the chart as SVG markup from Observable Plot (escaped by its DOM). */
export function figure(spec: FigureSpec, drawn: Drawn | Html): Html {
  const attrs = Object.entries(spec.data ?? {}).map(([k, v]) =>
    html`
      data-${k}="${v}"
    `
  );
  const picture = "wide" in drawn && drawn.wide === drawn.narrow
    ? html`<div class="chart-svg">${raw(drawn.wide)}</div>`
    : "wide" in drawn
    ? html`
      <div class="chart-svg chart-wide">${raw(drawn.wide)}</div>
      <div class="chart-svg chart-narrow">${raw(drawn.narrow)}</div>
    `
    : drawn;
  const id = spec.id ?? `plot-${spec.name}`;
  return html`
    <figure class="chart" id="${id}" data-plot="${spec.name}" ${attrs}>
    <figcaption>${spec.title
      ? html`
        <b>${spec.title}</b>
      `
      : ""}<span class="muted">${prose(spec.note)}</span></figcaption>
    <div class="chart-picture" role="img" aria-label="${spec.title ||
      spec.note.replaceAll("`", "")}" aria-describedby="${id}-summary">${picture}</div>
    ${spec.legend?.length ? html`<div class="legend">${spec.legend.map(swatch)}</div>` : ""}
    <p class="chart-summary" id="${id}-summary">${prose(spec.summary)}</p>
    <details class="chart-data"><summary>Numbers</summary>${spec.table}</details>
    </figure>
  `;
}
