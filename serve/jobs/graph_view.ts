/**
 * A job's panel: its facts, the task graph in columns by depth of `after` (each task a node with its role,
 * state, reason, run, time and cost; each `after` a link the page's script also draws as an edge), its
 * latest transitions, and the run of the task the URL opens. Pure.
 */
import { html } from "hono/html";
import type { RunDetail } from "../detail.ts";
import { renderDetail } from "../views/detail.ts";
import { badge, clip, compact, duration, type Html, int, text, tone, usd, when } from "../views/format.ts";
import { layers } from "./layout.ts";
import { graphFigure, timelineFigure } from "../plots/job_plots.ts";
import type { JobView, TaskView } from "./read.ts";

/** The transitions listed under the graph, newest first; the API returns more. */
const EVENTS_SHOWN = 30;

export interface JobPanelView {
  job: JobView;
  /** The task whose run is shown under the graph (`?task=`), if any. */
  open: string | null;
  detail: RunDetail | null;
  /** False when the open task's run has no state.json: it was never created (or not yet). */
  runCreated?: boolean;
  /** `?static=1`: no script draws the graph's edges, so the graph is a picture; links keep the flag. */
  static?: boolean;
}

const taskHref = (jobId: string, id: string, isStatic = false) =>
  `/jobs/${jobId}?task=${encodeURIComponent(id)}${isStatic ? "&static=1" : ""}`;

function cost(t: TaskView): Html {
  if (!t.usage) return html`<span class="muted cost" title="no worker turn has ended yet">cost -</span>`;
  return html`<span class="cost">${usd(t.costUsd ?? NaN)}</span> <span class="muted">${
    compact(t.usage.input)
  } in / ${compact(t.usage.output)} out</span>`;
}

function elapsed(t: TaskView): Html {
  // A running task's time keeps counting on the page between updates (assets/jobs.js).
  const live = t.state === "running" && t.elapsedMs !== null;
  return html`<span class="elapsed" title="${t.startedAt ? `started ${when(t.startedAt)}` : "not started"}" ${
    live ? html`data-elapsed="${String(t.elapsedMs)}"` : ""
  }>${duration(t.elapsedMs)}</span>`;
}

function node(job: JobView, t: TaskView, stateOf: Map<string, string>, open: string | null): Html {
  return html`
    <article class="node node-${tone(t.state)}${open === t.id ? " open" : ""}" id="task-${t
      .id}" data-task="${t.id}"
      data-state="${t.state}" data-after="${t.after.join(" ")}">
      <div class="node-head"><b class="node-id">${t.id}</b> <span class="badge role">${t.role}</span></div>
      <div class="node-state">${badge("status", t.state)}${t.runStatus && t.runStatus !== t.state
        ? html`
          <span class="muted">run ${t.runStatus}</span>
        `
        : ""}</div>
      ${t.reason
        ? html`
          <p class="reason" title="${clip(t.reason, 2000)}">${clip(t.reason, 200)}</p>
        `
        : ""}
      <p class="goal" title="${clip(t.task, 240)}">${clip(t.task, 90)}</p>
      <div class="node-meta">${elapsed(t)} · ${cost(t)}${t.executor
        ? html`
          · <span class="executor" title="ran on this executor of the fleet">on ${t.executor}</span>
        `
        : ""}</div>
      <div class="node-run">${t.runId
        ? html`
          <a href="${taskHref(job.jobId, t.id)}" data-open="${t.id}" title="Show this task's run">${t
            .runId}</a>
        `
        : html`
          <span class="muted">no run yet</span>
        `}</div>
      ${t.after.length
        ? html`<div class="after">after ${
          t.after.map((p) =>
            html`
              <a class="dep status-${tone(stateOf.get(p))}" href="#task-${p}">${p}</a>
            `
          )
        }</div>`
        : ""}
    </article>
  `;
}

function graph(job: JobView, open: string | null): Html {
  if (job.taskViews.length === 0) {
    return html`<p class="empty">No tasks yet: spot job add JOB TASK adds one.</p>`;
  }
  const stateOf = new Map(job.taskViews.map((t) => [t.id, t.state]));
  return html`
    <div class="graph" id="job-graph">
      <svg class="edges" aria-hidden="true"></svg>${layers(job.taskViews).map((column, depth) =>
        html`
          <div class="layer" data-depth="${depth}">${column.map((t) => node(job, t, stateOf, open))}</div>
        `
      )}
    </div>
  `;
}

/** Exactly what landed (a landing is all or nothing), what was rolled back, and why the last try landed nothing. */
function integration(job: JobView): Html {
  const i = job.integration;
  if (!i) return html`not yet`;
  const lines: Html[] = [];
  if (i.mode && i.at) {
    const landed = i.commits
      ? i.commits.map((c) => html`<li>${text(c.task)} <code>${text(c.commit.slice(0, 12))}</code></li>`)
      : (i.files ?? []).map((f) => html`<li><code>${clip(f, 300)}</code></li>`);
    const head = i.rolledBackAt
      ? html`${badge("status", "rolled-back")} ${text(i.mode)} mode at ${when(i.at)}, rolled back ${
        when(i.rolledBackAt)
      }; none of it stands`
      : html`${badge("status", "landed")} ${text(i.mode)} mode at ${when(i.at)}${
        i.onto
          ? html`
            on <code>${text(i.onto.slice(0, 12))}</code>
          `
          : ""
      }, integrated checks ${text(i.integratedChecks)}`;
    lines.push(html`${head}<ul class="landed">${landed}</ul>`);
  }
  if (i.failure) {
    const f = i.failure;
    lines.push(
      html`<p>${badge("status", "failed")} nothing landed by the last attempt (${when(f.at)})${
        f.task
          ? html`
            at builder <b>${text(f.task)}</b>
          `
          : ""
      }: <code>${text(f.code)}</code> <span class="reason">${clip(f.reason, 500)}</span></p>`,
    );
  }
  if (i.landedOutside?.length) {
    lines.push(
      html`<p>${
        badge("status", "integrated")
      } landed outside the job by <code>spot integrate</code> on the run: ${
        i.landedOutside.map((o) =>
          html`
            <b>${text(o.task)}</b> <code>${text(o.runId)}</code>
          `
        )
      }</p>`,
    );
  }
  if (!lines.length) return html`not yet`;
  return html`${lines}`;
}

function facts(job: JobView): Html {
  const t = job.totals;
  return html`
    <dl class="usage job-facts">
      <dt>Repository</dt>
      <dd><code>${clip(job.cwd, 300)}</code></dd>
      <dt>Created</dt>
      <dd>${when(job.createdAt)}, updated ${when(job.updatedAt)}</dd>
      <dt>Tasks</dt>
      <dd>${int(
        job.taskCount,
      )}: ${Object.entries(job.byState).filter(([, n]) => n > 0).map(([s, n]) => `${n} ${s}`).join(", ") ||
        "none"}</dd>
      <dt>Time</dt>
      <dd>${duration(t.elapsedMs)}</dd>
      <dt>Worker cost</dt>
      <dd>${job.taskViews.some((x) => x.usage !== null)
        ? `${usd(t.costUsd)} (${compact(t.tokensIn)} in / ${compact(t.tokensOut)} out)`
        : "- (no worker turn has ended yet)"}</dd>
      <dt>Writes</dt>
      <dd>${job.allowWrites ? "builders may write" : "read-only"}</dd>
      <dt>Integration</dt>
      <dd class="job-integration">${integration(job)}</dd>
      <dt>Approval</dt>
      <dd>${clip(job.approval, 300)}</dd>
    </dl>
  `;
}

function events(job: JobView): Html {
  if (job.events.length === 0) return html`<p class="muted">No transitions yet.</p>`;
  return html`<ol class="transitions job-events numbered">${
    job.events.slice(-EVENTS_SHOWN).reverse().map((e, i) =>
      html`<li><span class="step">${i + 1}.</span> <span class="muted">${when(e?.at)}</span> ${
        e?.type === "task" ? html`task <b>${text(e.id)}</b>` : html`<b>job</b>`
      } ${badge("status", e?.state)} <span class="reason">${clip(e?.reason, 300)}</span></li>`
    )
  }</ol>`;
}

function missingRun(t: TaskView, created: boolean): Html {
  if (created) {
    return html`<p class="muted">The run's files could not be read (state.json is being written or is damaged).</p>`;
  }
  const why = t.reason ? ` (${clip(t.reason, 300)})` : "";
  return html`<p class="muted">Run ${t.runId} has not been created: task ${t.id} is ${t.state}${why}.</p>`;
}

function opened(job: JobView, v: JobPanelView): Html | string {
  const { open, detail } = v;
  if (open === null) return "";
  const t = job.taskViews.find((x) => x.id === open);
  const body = !t
    ? html`<p class="muted">This job has no task "${open}".</p>`
    : !t.runId
    ? html`<p class="muted">Task ${open} has no run yet.</p>`
    : detail
    ? renderDetail(detail)
    : missingRun(t, v.runCreated !== false);
  return html`<section class="panel task-run" id="task-run" data-open-task="${open}" aria-label="Task run">
<div class="panel-head"><h2>Task ${open}${
    t?.runId ? html`: run <span class="run-id">${t.runId}</span>` : ""
  }</h2>
<a href="/jobs/${job.jobId}">close</a></div>${body}</section>`;
}

export function renderJobPanel(v: JobPanelView): Html {
  const job = v.job;
  return html`<section class="panel job" aria-label="Job" data-job="${job.jobId}" data-status="${
    text(job.status)
  }">
<div class="panel-head"><h2>Job <span class="run-id">${job.jobId}</span> ${
    badge("status", job.status)
  }</h2><button type="button" class="refresh" data-refresh="job">Refresh</button></div>
${job.reason ? html`<p class="reason">${clip(job.reason, 600)}</p>` : ""}
${facts(job)}
${v.static ? graphFigure(job, (t) => t.runId ? taskHref(job.jobId, t.id, true) : null) : graph(job, v.open)}
${timelineFigure(job)}
<h3>Transitions</h3>
${events(job)}
</section>
${opened(job, v)}`;
}
