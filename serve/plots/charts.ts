/**
 * The dashboard's charts as Observable Plot specifications, each drawn at two widths (a column of the wide
 * page, and a phone) so its text stays legible instead of shrinking with the picture. Every mark carries a
 * `<title>` with its exact value: what a pointer shows, and what the browser tests read back. Loaded lazily
 * with ./svg.ts.
 */
import { Plot, type PlotOptions, svgOf } from "./svg.ts";
import type { BucketSize, ProfileStats, RunSeries, Stacked } from "./series.ts";
import { outcomeColors, seriesColors } from "./palette.ts";
import { usd } from "../views/format.ts";

export interface Drawn {
  wide: string;
  narrow: string;
}

export const WIDE = 640;
export const NARROW = 360;
const DAY_MS = 86_400_000;

export function both(spec: (width: number) => PlotOptions): Drawn {
  return { wide: svgOf(spec(WIDE)), narrow: svgOf(spec(NARROW)) };
}

/** Room for the longest label at Plot's 10 px font, so no tick label is cut at the left edge. */
export function marginFor(labels: readonly string[]): number {
  return Math.min(170, 14 + 6.2 * Math.max(4, ...labels.map((l) => l.length)));
}

export function clipLabel(s: string, max = 24): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

const dateOf = (bucket: string) => new Date(`${bucket}T00:00:00.000Z`);
const MIN_PERIODS = 7;
/** An axis's dollars: `$0.0005`, not `0.00050`. */
const dollars = (n: number) => `$${Number(n.toPrecision(3))}`;

/** At most `most` of the dates, evenly spaced, the newest always among them. */
function everyNth(dates: readonly Date[], most: number): Date[] {
  const every = Math.ceil(dates.length / most);
  return dates.filter((_, i) => (dates.length - 1 - i) % every === 0);
}

function overTime(
  s: RunSeries,
  cells: readonly Stacked[],
  o: {
    label: string;
    keys: string[];
    colors: string[];
    format: (n: number) => string;
    tick?: (n: number) => string;
  },
): Drawn {
  const step = s.by === "day" ? DAY_MS : 7 * DAY_MS;
  const end = dateOf(s.buckets.at(-1)!).getTime() + step;
  // A week of days (or weeks) at least, so one day of runs is a bar among empty days, not the whole width
  // over an axis of its hours; ticks sit on period starts only.
  const count = Math.max(MIN_PERIODS, s.buckets.length);
  const starts = Array.from({ length: count }, (_, i) => new Date(end - (count - i) * step));
  const interval = s.by === "day" ? "day" : "monday";
  return both((width) => ({
    width,
    height: width === WIDE ? 220 : 200,
    marginLeft: 48,
    marginRight: 16,
    x: {
      type: "utc",
      domain: [starts[0], new Date(end)],
      label: null,
      ticks: everyNth(starts, width === WIDE ? 6 : 3),
      tickFormat: "%b %-d",
    },
    y: { label: o.label, grid: true, tickFormat: o.tick ?? "~s", nice: true },
    color: { domain: o.keys, range: o.colors },
    marks: [
      Plot.rectY(cells, {
        x: (d: Stacked) => dateOf(d.bucket),
        interval,
        y: "value",
        fill: "key",
        order: o.keys,
        inset: 0.5,
        title: (d: Stacked) => `${d.bucket} · ${d.key}: ${o.format(d.value)}`,
      }),
      Plot.ruleY([0]),
    ],
  }));
}

export function avoidedChart(s: RunSeries): Drawn {
  return overTime(s, s.avoided, {
    label: "parent tokens avoided",
    keys: s.profiles,
    colors: seriesColors(s.profiles),
    format: (n) => Math.round(n).toLocaleString("en-US"),
  });
}

export function costChart(s: RunSeries): Drawn {
  return overTime(s, s.cost, {
    label: "worker cost (USD)",
    keys: s.profiles,
    colors: seriesColors(s.profiles),
    format: usd,
    tick: dollars,
  });
}

export function outcomeChart(s: RunSeries): Drawn {
  const colors = outcomeColors(s.outcomeNames);
  return overTime(s, s.outcomes, { label: "runs", keys: s.outcomeNames, colors, format: String });
}

export const profileLabel = (p: ProfileStats) =>
  clipLabel(p.adapter && p.adapter !== p.profile ? `${p.profile} · ${p.adapter}` : p.profile);

export const passLabel = (p: ProfileStats) =>
  p.passRate === null ? "none verified" : `${Math.round(p.passRate * 100)}% of ${p.verified}`;

/** Two bars per profile: what a run costs, and how often its checks pass. */
export function profileCharts(compared: readonly ProfileStats[]): { cost: Drawn; pass: Drawn } {
  const labels = compared.map(profileLabel);
  const height = 36 + 26 * compared.length;
  const maxCost = Math.max(0, ...compared.map((p) => p.costPerRun));
  const common = (width: number): PlotOptions => ({
    width: width === WIDE ? WIDE / 2 - 8 : NARROW,
    height,
    marginLeft: marginFor(labels),
    marginRight: 12,
    y: { domain: labels, label: null },
  });
  const cost = both((width) => ({
    ...common(width),
    x: {
      domain: [0, maxCost > 0 ? maxCost * 1.6 : 1],
      label: "cost per run (USD)",
      ticks: 2,
      tickFormat: dollars,
    },
    marks: [
      Plot.barX(compared, {
        y: profileLabel,
        x: "costPerRun",
        fill: "#4269d0",
        title: (p: ProfileStats) => `${p.profile}: ${usd(p.costPerRun)} per run over ${p.runs} run(s)`,
      }),
      Plot.text(compared, {
        y: profileLabel,
        x: "costPerRun",
        text: (p: ProfileStats) => usd(p.costPerRun),
        dx: 4,
        textAnchor: "start",
      }),
      Plot.ruleX([0]),
    ],
  }));
  const pass = both((width) => ({
    ...common(width),
    x: {
      domain: [0, 1.6],
      label: "checks passed",
      ticks: [0, 0.5, 1],
      tickFormat: (n: number) => `${n * 100}%`,
    },
    marks: [
      Plot.barX(compared.filter((p) => p.passRate !== null), {
        y: profileLabel,
        x: "passRate",
        fill: "#2e7d32",
        title: (p: ProfileStats) => `${p.profile}: ${p.passed} of ${p.verified} verified run(s) passed`,
      }),
      Plot.text(compared, {
        y: profileLabel,
        x: (p: ProfileStats) => p.passRate ?? 0,
        text: passLabel,
        dx: 4,
        textAnchor: "start",
      }),
      Plot.ruleX([0]),
    ],
  }));
  return { cost, pass };
}

export type { BucketSize };
