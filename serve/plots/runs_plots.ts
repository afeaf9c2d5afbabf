/**
 * The runs page's plots panel: parent tokens avoided and worker cost over time (stacked by profile), each
 * period's outcomes, and the profiles side by side (cost per run, checks passed). Rendered panels are kept
 * by what they show (the index's generation and the view), so a refresh with no run changed costs a lookup.
 */
import { html, raw } from "hono/html";
import type { RunEntry } from "../../store/run_entry.ts";
import { compact, type Html, int, pct, usd } from "../views/format.ts";
import { charts, figure } from "./figure.ts";
import { outcomeColors, seriesColors } from "./palette.ts";
import { type BucketSize, type ProfileStats, type RunSeries, runSeries, type Stacked } from "./series.ts";

export interface PlotsView {
  entries: readonly RunEntry[];
  /** Day or week; chosen from the runs' span when not given. */
  by?: BucketSize;
  /** Links to the other period size (`?by=…`); none in the offline file. */
  byHref?: (by: BucketSize) => string;
}

function legend(keys: readonly string[], colors: readonly string[]) {
  return keys.map((name, i) => ({ name, color: colors[i] }));
}

function range(s: RunSeries): string {
  const first = s.buckets[0];
  const last = s.buckets.at(-1)!;
  return first === last ? `${s.by === "week" ? "the week of " : ""}${first}` : `${first} to ${last}`;
}

function cellsTable(
  label: string,
  cells: readonly Stacked[],
  keyName: string,
  fmt: (n: number) => string,
): Html {
  const rows = [...cells].sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0));
  return html`
    <table class="chart-table" data-cells="${label}">
      <thead>
        <tr>
          <th>Period</th>
          <th>${keyName}</th>
          <th>${label}</th>
        </tr>
      </thead>
      <tbody>${rows.map((c) =>
        html`
          <tr data-bucket="${c.bucket}" data-key="${c.key}" data-value="${String(c.value)}">
            <td>${c.bucket}</td>
            <td>${c.key}</td>
            <td class="num">${fmt(c.value)}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

function peak(cells: readonly Stacked[]): { bucket: string; value: number } | null {
  const by = new Map<string, number>();
  for (const c of cells) by.set(c.bucket, (by.get(c.bucket) ?? 0) + c.value);
  const top = [...by].sort((a, b) => b[1] - a[1])[0];
  return top && top[1] > 0 ? { bucket: top[0], value: top[1] } : null;
}

const total = (cells: readonly Stacked[]) => cells.reduce((n, c) => n + c.value, 0);

function outcomeSummary(s: RunSeries): string {
  const counts = s.outcomeNames.map((o) =>
    `${int(total(s.outcomes.filter((c) => c.key === o)))} ${o === o.toUpperCase() ? `stopped by ${o}` : o}`
  );
  return `${int(s.runs)} run(s) from ${range(s)}: ${counts.join(", ")}.`;
}

function profileSummary(list: readonly ProfileStats[]): string {
  const cheapest = [...list].sort((a, b) => a.costPerRun - b.costPerRun)[0];
  const verified = list.filter((p) => p.passRate !== null);
  const best = [...verified].sort((a, b) => b.passRate! - a.passRate! || b.verified - a.verified)[0];
  return `Cheapest per run: ${cheapest.profile} (${usd(cheapest.costPerRun)} over ${
    int(cheapest.runs)
  } run(s)). ` +
    (best
      ? `Most often passing its checks: ${best.profile} (${pct(best.passRate)} of ${
        int(best.verified)
      } verified).`
      : "No run has been verified yet.");
}

function profileTable(list: readonly ProfileStats[]): Html {
  return html`
    <table class="chart-table" data-profiles>
      <thead>
        <tr>
          <th>Profile</th>
          <th>Runs</th>
          <th>Cost per run</th>
          <th>Checks passed</th>
        </tr>
      </thead>
      <tbody>${list.map((p) =>
        html`
          <tr data-profile="${p.profile}" data-runs="${String(p.runs)}" data-cost="${String(
            p.costUsd,
          )}" data-verified="${String(p.verified)}"
            data-passed="${String(p.passed)}">
            <td>${p.profile} <span class="muted">${p.adapter}</span></td>
            <td class="num">${int(p.runs)}</td>
            <td class="num">${usd(p.costPerRun)}</td>
            <td class="num">${p.passRate === null
              ? "-"
              : `${int(p.passed)} of ${int(p.verified)} (${pct(p.passRate)})`}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

async function figures(s: RunSeries): Promise<Html> {
  const c = await charts();
  const per = s.by === "day" ? "per day" : "per week (from Monday)";
  const profileColors = seriesColors(s.profiles);
  const avoidedPeak = peak(s.avoided);
  const costPeak = peak(s.cost);
  const pair = c.profileCharts(s.compared);
  return html`${
    figure({
      name: "avoided",
      title: "Parent tokens avoided",
      note: `${per}, stacked by profile`,
      summary:
        `${compact(total(s.avoided))} parent tokens avoided over ${int(s.runs)} run(s) from ${range(s)}` +
        (avoidedPeak
          ? `; the most ${s.by === "day" ? "on" : "in the week of"} ${avoidedPeak.bucket} (${
            compact(avoidedPeak.value)
          }).`
          : "."),
      legend: legend(s.profiles, profileColors),
      table: cellsTable("tokens avoided", s.avoided, "Profile", (n) => int(n)),
      data: { bucket: s.by },
    }, c.avoidedChart(s))
  }${
    figure({
      name: "cost",
      title: "Worker cost",
      note: `${per}, stacked by profile`,
      summary: `${usd(total(s.cost))} of worker cost over ${int(s.runs)} run(s) from ${range(s)}` +
        (costPeak
          ? `; the most ${s.by === "day" ? "on" : "in the week of"} ${costPeak.bucket} (${
            usd(costPeak.value)
          }).`
          : "."),
      legend: legend(s.profiles, profileColors),
      table: cellsTable("cost (USD)", s.cost, "Profile", usd),
      data: { bucket: s.by },
    }, c.costChart(s))
  }${
    figure({
      name: "outcomes",
      title: "Outcomes",
      note: `${per}: checks passed or failed, or the gate that stopped a run`,
      summary: outcomeSummary(s),
      legend: legend(s.outcomeNames, outcomeColors(s.outcomeNames)),
      table: cellsTable("runs", s.outcomes, "Outcome", int),
      data: { bucket: s.by },
    }, c.outcomeChart(s))
  }${
    figure(
      {
        name: "profiles",
        title: "Which worker",
        note: "each profile's cost per run and share of verified runs that passed their checks",
        summary: profileSummary(s.compared),
        table: profileTable(s.compared),
      },
      html`
        <div class="chart-pair">
          <div class="chart-svg chart-wide">${raw(pair.cost.wide)}${raw(pair.pass.wide)}</div>
          <div class="chart-svg chart-narrow">${raw(pair.cost.narrow)}${raw(pair.pass.narrow)}</div>
        </div>
      `,
    )
  }`;
}

export async function renderPlotsPanel(v: PlotsView): Promise<Html> {
  const s = runSeries(v.entries, v.by);
  const switcher = v.byHref
    ? html`<span class="by">${
      (["day", "week"] as const).map((b) =>
        b === s.by
          ? html`
            <b aria-current="true">by ${b}</b>
          `
          : html`
            <a href="${v.byHref!(b)}" data-by="${b}">by ${b}</a>
          `
      )
    }</span>`
    : "";
  const older = s.older
    ? html`
      <span class="muted">(${int(s.older)} older run(s) not plotted)</span>
    `
    : "";
  return html`<section class="panel plots" id="plots" aria-label="Plots" data-runs="${
    String(s.runs)
  }" data-older="${String(s.older)}">
<div class="panel-head"><h2>Over time</h2>${switcher}${older}</div>
${
    s.runs === 0
      ? html`<p class="empty">No runs yet: the plots start with the first run.</p>`
      : html`<div class="charts">${await figures(s)}</div>`
  }
</section>`;
}
