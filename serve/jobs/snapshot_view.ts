/**
 * The jobs of `spot dashboard`'s offline file: each job with its graph (a picture whose boxes link to the
 * tasks' runs), its timeline, and every task (role, state, time, cost, reason) in a table, a task's run linked
 * to its row in the file's runs panel when the file holds it. No script and no style of its own, so the
 * file's content security policy stays as it is.
 */
import { html } from "hono/html";
import { badge, clip, duration, type Html, int, text, usd, when } from "../views/format.ts";
import { graphFigure, timelineFigure } from "../plots/job_plots.ts";
import type { JobView, TaskView } from "./read.ts";

function task(jobId: string, t: TaskView, shownRuns: ReadonlySet<string>): Html {
  const run = t.runId === null
    ? html`<span class="muted">-</span>`
    : shownRuns.has(t.runId)
    ? html`<a href="#detail-${t.runId}" data-show="${t.runId}"><code>${t.runId}</code></a>`
    : html`<code>${text(t.runId)}</code>`;
  return html`
    <tr class="job-task" id="job-${jobId}-task-${text(t.id)}" data-task="${text(t.id)}" data-state="${text(
      t.state,
    )}">
      <td data-label="Task"><b>${text(t.id)}</b> <span class="muted">${text(t.role)}</span>${t.after.length
        ? html`
          <div class="muted">after ${t.after.map((a) => text(a)).join(", ")}</div>
        `
        : ""}</td>
      <td data-label="State">${badge("status", t.state)}${t.reason
        ? html`
          <div class="reason">${clip(t.reason, 300)}</div>
        `
        : ""}</td>
      <td data-label="Time">${duration(t.elapsedMs)}</td>
      <td data-label="Cost">${t.costUsd === null ? "-" : usd(t.costUsd)}</td>
      <td data-label="Run">${run}</td>
    </tr>
  `;
}

function job(j: JobView, shownRuns: ReadonlySet<string>): Html {
  return html`
    <section class="job-snapshot" id="job-${j.jobId}" data-job="${j.jobId}">
      <h3><code>${j.jobId}</code> ${badge("status", j.status)}</h3>
      ${j.reason
        ? html`
          <p class="reason">${clip(j.reason, 400)}</p>
        `
        : ""}
      <p class="muted">${int(j.taskCount)} task(s) in <code>${clip(j.cwd, 160)}</code>, updated ${when(
        j.updatedAt,
      )}; ${usd(j.totals.costUsd)}</p>
      <div class="job-figures">${graphFigure(
        j,
        (t) => t.runId && shownRuns.has(t.runId) ? `#detail-${t.runId}` : null,
      )}${timelineFigure(j)}</div>
      <table class="runs job-tasks">
        <thead>
          <tr><th>Task</th><th>State</th><th>Time</th><th>Cost</th><th>Run</th></tr>
        </thead>
        <tbody>${j.taskViews.map((t) => task(j.jobId, t, shownRuns))}</tbody>
      </table>
    </section>
  `;
}

/** The jobs section; `total` counts every job, `jobs` the newest the file holds. */
export function renderJobsSnapshot(
  jobs: readonly JobView[],
  total: number,
  shownRuns: ReadonlySet<string>,
): Html {
  if (total === 0) {
    return html`
      <section id="jobs" class="panel">
        <h2>Jobs</h2>
        <p class="muted">No job.</p>
      </section>
    `;
  }
  const note = jobs.length < total
    ? `The newest ${int(jobs.length)} of ${int(total)} jobs; \`spot serve\` shows them all.`
    : `${int(total)} job(s).`;
  return html`<section id="jobs" class="panel"><h2>Jobs</h2><p class="muted">${note}</p>${
    jobs.map((j) => job(j, shownRuns))
  }</section>`;
}
