/** The jobs panel: every job with its status, its tasks by state, its age and its repository. Pure. */
import { html } from "hono/html";
import { TASK_STATES } from "../../graphs/schedule.ts";
import { badge, clip, duration, type Html, int, text, when } from "../views/format.ts";
import { type JobRow, JOBS_PAGE } from "./read.ts";

export interface JobsListView {
  total: number;
  page: number;
  limit: number;
  jobs: JobRow[];
  now: Date;
}

function byState(r: JobRow): Html {
  const counts = TASK_STATES.filter((s) => (r.byState[s] ?? 0) > 0);
  if (counts.length === 0) return html`<span class="muted">no tasks</span>`;
  return html`${
    counts.map((s) =>
      html`
        <span class="count" data-count="${s}">${badge("status", s)} ${int(r.byState[s])}</span>
      `
    )
  }`;
}

function age(r: JobRow, now: Date): string {
  const created = Date.parse(r.createdAt);
  return Number.isFinite(created) ? duration(now.getTime() - created) : "-";
}

function row(r: JobRow, now: Date): Html {
  return html`
    <tr class="job" data-job="${r.jobId}" data-status="${text(r.status)}">
      <td data-label="Job"><a class="run-id" href="/jobs/${r.jobId}">${r.jobId}</a></td>
      <td data-label="Status">${badge("status", r.status)}${r.reason
        ? html`
          <div class="reason">${clip(r.reason, 200)}</div>
        `
        : ""}</td>
      <td data-label="Tasks">
        <div class="card-counts">${byState(r)}</div>
        <div class="muted">${int(
          r.taskCount,
        )} task(s)</div>
      </td>
      <td data-label="Age" title="${when(r.createdAt)}">${age(r, now)}</td>
      <td data-label="Repository"><code>${clip(r.cwd, 120)}</code></td>
      <td data-label="Updated" class="muted">${when(r.updatedAt)}</td>
    </tr>
  `;
}

function pager(v: JobsListView): Html {
  const pages = Math.max(1, Math.ceil(v.total / v.limit));
  const first = v.total === 0 ? 0 : (v.page - 1) * v.limit + 1;
  const last = Math.min(v.total, v.page * v.limit);
  const href = (page: number) => page === 1 && v.limit === JOBS_PAGE ? "?" : `?page=${page}&limit=${v.limit}`;
  return html`<nav class="pager" aria-label="Pages">
<span>${int(first)}–${int(last)} of ${int(v.total)}</span>
${v.page > 1 ? html`<a href="${href(v.page - 1)}">newer</a>` : ""}
${v.page < pages ? html`<a href="${href(v.page + 1)}">older</a>` : ""}
</nav>`;
}

export function renderJobsPanel(v: JobsListView): Html {
  return html`<section class="panel" aria-label="Jobs">
<div class="panel-head"><h2>Jobs</h2><button type="button" class="refresh" data-refresh="jobs">Refresh</button></div>
${
    v.jobs.length === 0
      ? html`
        <p class="empty">No jobs${v.total > 0 ? " on this page" : " yet: spot job init FILE creates one"}.</p>
      `
      : html`
        <div class="table-wrap">
          <table class="runs jobs" id="jobs-table">
            <thead>
              <tr>
                <th>Job</th>
                <th>Status</th>
                <th>Tasks by state</th>
                <th>Age</th>
                <th>Repository</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>${v.jobs.map((r) => row(r, v.now))}</tbody>
          </table>
        </div>
      `
  }
${pager(v)}
</section>`;
}
