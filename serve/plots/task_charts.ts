/**
 * The charts of one run and one job: a run's time per status, a job's tasks on one clock, and a job's graph
 * as a picture for the offline file (no script draws its edges there). Loaded lazily with ./svg.ts.
 */
import { Plot, type PlotOptions, svgOf } from "./svg.ts";
import { both, clipLabel, type Drawn, marginFor, NARROW, WIDE } from "./charts.ts";
import type { PhaseTime, Segment } from "./phases.ts";
import { SEGMENT_KINDS } from "./phases.ts";
import { kindColors, STATE_COLORS } from "./palette.ts";
import { duration } from "../views/format.ts";

/** A run's time per status, longest bar first in the order the run lived them. */
export function phaseChart(phases: readonly PhaseTime[]): Drawn {
  const labels = phases.map((p) => p.phase);
  const max = Math.max(1, ...phases.map((p) => p.ms));
  // One width: the chart sits in a cell of the detail grid, about a phone's width on any screen.
  const svg = svgOf(spec(NARROW));
  return { wide: svg, narrow: svg };
  function spec(width: number): PlotOptions {
    return {
      width,
      height: 36 + 24 * phases.length,
      marginLeft: marginFor(labels),
      marginRight: 12,
      y: { domain: labels, label: null },
      x: {
        domain: [0, (max * 1.45) / 1000],
        label: "time",
        ticks: 3,
        tickFormat: (s: number) => duration(s * 1000),
      },
      marks: [
        Plot.barX(phases, {
          y: "phase",
          x: (p: PhaseTime) => p.ms / 1000,
          fill: "#4269d0",
          title: (p: PhaseTime) => `${p.phase}: ${duration(p.ms)} (${p.ms} ms)`,
        }),
        Plot.text(phases, {
          y: "phase",
          x: (p: PhaseTime) => p.ms / 1000,
          text: (p: PhaseTime) => duration(p.ms),
          dx: 4,
          textAnchor: "start",
        }),
        Plot.ruleX([0]),
      ],
    };
  }
}

export interface TimelineRow extends Segment {
  task: string;
}

/** A job's tasks on one clock: one row per task, its waits, worker turns, checks and reviews side by side. */
export function timelineChart(rows: readonly TimelineRow[], tasks: readonly string[]): Drawn {
  const kinds = SEGMENT_KINDS.filter((k) => rows.some((r) => r.kind === k));
  const times = rows.flatMap((r) => [Date.parse(r.start), Date.parse(r.end)]).filter(Number.isFinite);
  // Within a day the clock's hours and minutes on one line (Plot's default put "AM" on a second).
  const sameDay = times.length > 0 && Math.max(...times) - Math.min(...times) < 86_400_000;
  return both((width) => ({
    width,
    height: 44 + 26 * tasks.length,
    marginLeft: marginFor(tasks),
    marginRight: 16,
    y: { domain: [...tasks], label: null },
    x: {
      type: "utc",
      label: null,
      ticks: width === WIDE ? 6 : 3,
      ...(sameDay ? { tickFormat: "%H:%M" } : {}),
    },
    color: { domain: kinds, range: kindColors(kinds) },
    marks: [
      Plot.barX(rows, {
        y: "task",
        x1: (r: TimelineRow) => new Date(r.start),
        x2: (r: TimelineRow) => new Date(r.end),
        fill: "kind",
        title: (r: TimelineRow) => `${r.task} · ${r.kind}: ${duration(r.ms)} (${r.ms} ms)`,
      }),
    ],
  }));
}

export interface GraphNode {
  id: string;
  depth: number;
  /** Its place in its column, from the top. */
  row: number;
  state: string;
  lines: [string, string];
  /** Where a click goes: the task's run in the file, or its row in the job's table. */
  href: string;
}

const NODE_W = 160;
const NODE_H = 56;
const GAP_X = 56;
const GAP_Y = 14;

/** The graph as one picture: a box per task in columns by depth, a curve per `after`, every box a link. */
export function graphChart(nodes: readonly GraphNode[], edges: readonly [string, string][]): string {
  const cols = Math.max(1, ...nodes.map((n) => n.depth + 1));
  const rows = Math.max(1, ...nodes.map((n) => n.row + 1));
  const width = cols * (NODE_W + GAP_X) - GAP_X;
  const height = rows * (NODE_H + GAP_Y) - GAP_Y;
  const at = new Map(
    nodes.map((n) => [n.id, { x: n.depth * (NODE_W + GAP_X), y: n.row * (NODE_H + GAP_Y) }]),
  );
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const links = edges.filter(([a, b]) => at.has(a) && at.has(b));
  const color = (state: string) => STATE_COLORS[state] ?? STATE_COLORS.queued;
  const x = (n: GraphNode, dx = 0) => at.get(n.id)!.x + dx;
  const y = (n: GraphNode, dy = 0) => at.get(n.id)!.y + dy;
  const line = (dy: number, text: (n: GraphNode) => string, extra: Record<string, unknown> = {}) =>
    Plot.text(nodes, {
      x: (n: GraphNode) => x(n, 10),
      y: (n: GraphNode) => y(n, dy),
      text,
      textAnchor: "start",
      lineAnchor: "middle",
      // The box under the text is the link.
      pointerEvents: "none",
      ...extra,
    });
  return svgOf({
    width: width + 8,
    height: height + 8,
    margin: 4,
    x: { domain: [0, width], axis: null },
    y: { domain: [height, 0], axis: null },
    marks: [
      Plot.link(links, {
        x1: ([a]: [string, string]) => at.get(a)!.x + NODE_W,
        y1: ([a]: [string, string]) => at.get(a)!.y + NODE_H / 2,
        x2: ([, b]: [string, string]) => at.get(b)!.x,
        y2: ([, b]: [string, string]) => at.get(b)!.y + NODE_H / 2,
        curve: "bump-x",
        stroke: ([a]: [string, string]) => color(byId.get(a)!.state),
        strokeWidth: 1.5,
        title: ([a, b]: [string, string]) => `${b} after ${a}`,
      }),
      Plot.rect(nodes, {
        x1: (n: GraphNode) => x(n),
        x2: (n: GraphNode) => x(n, NODE_W),
        y1: (n: GraphNode) => y(n),
        y2: (n: GraphNode) => y(n, NODE_H),
        fill: "var(--card, white)",
        stroke: (n: GraphNode) => color(n.state),
        strokeWidth: 2,
        rx: 6,
        href: "href",
        title: (n: GraphNode) => `${n.id}: ${n.lines.join(", ")}`,
      }),
      line(14, (n) => clipLabel(n.id, 22), { fontWeight: "bold", fontSize: 12 }),
      line(31, (n) => clipLabel(n.lines[0], 26)),
      line(46, (n) => clipLabel(n.lines[1], 26)),
    ],
  });
}
