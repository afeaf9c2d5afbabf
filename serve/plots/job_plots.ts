/**
 * The figures of one run and one job: a run's time per status (its detail row), a job's timeline (each task's
 * wait, worker turns, checks and reviews on one clock, so what ran at once is plain), and the job's graph as a
 * picture with links for the offline file. Each has its numbers as a table beside it.
 */
import { html, raw } from "hono/html";
import { duration, type Html, int, usd, when } from "../views/format.ts";
import type { JobView, TaskView } from "../jobs/read.ts";
import { layers } from "../jobs/layout.ts";
import { figure, taskCharts } from "./figure.ts";
import { kindColors } from "./palette.ts";
import { maxConcurrency, type PhaseTime, type Segment, SEGMENT_KINDS } from "./phases.ts";

async function drawPhases(phases: readonly PhaseTime[], runId: string, chart: boolean): Promise<Html> {
  if (phases.length === 0) return html`<p class="muted">No time recorded yet.</p>`;
  const total = phases.reduce((n, p) => n + p.ms, 0);
  const longest = [...phases].sort((a, b) => b.ms - a.ms)[0];
  return figure(
    {
      name: "phases",
      id: `phases-${runId}`,
      title: "",
      note: "how long the run stayed in each status",
      summary: `${duration(total)} in all; the longest in ${longest.phase} (${duration(longest.ms)}).`,
      table: html`
        <table class="chart-table" data-phases>
          <thead>
            <tr>
              <th>Status</th>
              <th>Time</th>
            </tr>
          </thead>
          <tbody>${phases.map((p) =>
            html`
              <tr data-phase="${p.phase}" data-ms="${String(p.ms)}">
                <td>${p.phase}</td>
                <td class="num">${duration(p.ms)}</td>
              </tr>
            `
          )}</tbody>
        </table>
      `,
    },
    chart
      ? (await taskCharts()).phaseChart(phases)
      : html`<p class="muted">(numbers only: the file draws this for its newest runs)</p>`,
  );
}

async function drawTimeline(job: JobView): Promise<Html | string> {
  const rows = job.taskViews.flatMap((t) => t.segments.map((s) => ({ ...s, task: t.id })));
  if (rows.length === 0) return "";
  const tasks = job.taskViews.filter((t) => t.segments.length > 0).map((t) => t.id);
  const kinds = SEGMENT_KINDS.filter((k) => rows.some((r) => r.kind === k));
  const bySegments = new Map(job.taskViews.map((t) => [t.id, t.segments as readonly Segment[]]));
  const waited = rows.filter((r) => r.kind === "wait").reduce((n, r) => n + r.ms, 0);
  const start = rows.reduce((m, r) => (r.start < m ? r.start : m), rows[0].start);
  const end = rows.reduce((m, r) => (r.end > m ? r.end : m), rows[0].end);
  const colors = kindColors(kinds);
  return figure({
    name: "timeline",
    id: `timeline-${job.jobId}`,
    title: "Timeline",
    note: "each task's wait for its `after`, then its run's phases, on one clock",
    summary: `${int(tasks.length)} task(s) from ${when(start)} to ${when(end)} (${
      duration(Date.parse(end) - Date.parse(start))
    }); at most ${int(maxConcurrency(bySegments))} ran at once; ${duration(waited)} spent waiting in all.`,
    legend: kinds.map((name, i) => ({ name, color: colors[i] })),
    table: html`
      <table class="chart-table" data-segments>
        <thead>
          <tr>
            <th>Task</th>
            <th>Phase</th>
            <th>From</th>
            <th>Time</th>
          </tr>
        </thead>
        <tbody>${rows.map((r) =>
          html`
            <tr data-task="${r.task}" data-kind="${r.kind}" data-start="${r.start}" data-end="${r.end}"
              data-ms="${String(r.ms)}">
              <td>${r.task}</td>
              <td>${r.kind}</td>
              <td>${when(r.start)}</td>
              <td class="num">${duration(r.ms)}</td>
            </tr>
          `
        )}</tbody>
      </table>
    `,
  }, (await taskCharts()).timelineChart(rows, tasks));
}

async function drawGraph(
  job: JobView,
  runHref: (t: TaskView) => string | null,
): Promise<Html | string> {
  if (job.taskViews.length === 0) return "";
  const nodes = layers(job.taskViews).flatMap((column) =>
    column.map((t, row) => ({
      id: t.id,
      depth: t.depth,
      row,
      state: t.state,
      lines: [
        `${t.role} · ${t.state}`,
        `${duration(t.elapsedMs)} · ${t.costUsd === null ? "cost -" : usd(t.costUsd)}`,
      ] as [
        string,
        string,
      ],
      href: runHref(t) ?? `#job-${job.jobId}-task-${t.id}`,
    }))
  );
  const edges = job.taskViews.flatMap((t) => t.after.map((a) => [a, t.id] as [string, string]));
  const svg = (await taskCharts()).graphChart(nodes, edges);
  return figure({
    name: "graph",
    id: `graph-${job.jobId}`,
    title: "Graph",
    note: "a column per depth of `after`; a click opens the task's run",
    summary: `${int(nodes.length)} task(s) in ${int(Math.max(...nodes.map((n) => n.depth)) + 1)} column(s), ${
      int(edges.length)
    } \`after\` link(s).`,
    table: html`
      <table class="chart-table" data-edges>
        <thead>
          <tr>
            <th>Task</th>
            <th>After</th>
          </tr>
        </thead>
        <tbody>${job.taskViews.map((t) =>
          html`
            <tr data-task="${t.id}">
              <td>${t.id}</td>
              <td>${t.after.join(", ") || "-"}</td>
            </tr>
          `
        )}</tbody>
      </table>
    `,
  }, html`<div class="chart-svg chart-graph">${raw(svg)}</div>`);
}

/** A run's time per status. */
/** A run's time per status; with `chart: false`, its sentence and numbers without the picture. */
export function phaseFigure(phases: readonly PhaseTime[], runId: string, o: { chart?: boolean } = {}): Html {
  return html`${drawPhases(phases, runId, o.chart ?? true)}`;
}

/** A job's timeline; nothing before a task has started. */
export function timelineFigure(job: JobView): Html {
  return html`${drawTimeline(job)}`;
}

/** The job's graph as a picture; `runHref` says where a task's run is shown (in the file, or a static page). */
export function graphFigure(job: JobView, runHref: (t: TaskView) => string | null): Html {
  return html`${drawGraph(job, runHref)}`;
}
