/** The expanded row of one run: how it got here, what was checked, what was said about it. Pure. */
import { html } from "hono/html";
import { ACTIVE } from "../../store/run_entry.ts";
import type { RunDetail } from "../detail.ts";
import { clip, codeName, type Html, int, sha, text, usd, when, yesNo } from "./format.ts";
import { phaseFigure } from "../plots/job_plots.ts";
import { runPhases } from "../plots/phases.ts";

function section(title: string, body: Html): Html {
  return html`<section class="detail-part"><h3>${title}</h3>${body}</section>`;
}

function none(what: string): Html {
  return html`<p class="muted">${what}</p>`;
}

function transitions(d: RunDetail): Html {
  const list = Array.isArray(d.state.transitions) ? d.state.transitions : [];
  if (list.length === 0) return none("No transitions recorded.");
  // The step number is text, not a list marker: a marker sits outside the box and loses its first digit
  // past nine.
  return html`<ol class="transitions numbered">${
    list.map((t, i) =>
      html`<li><span class="step">${i + 1}.</span> <span class="muted">${when(t?.at)}</span> ${
        text(t?.from ?? "-")
      } → <b>${text(t?.to)}</b> <span class="reason">${clip(t?.reason, 300)}</span></li>`
    )
  }</ol>`;
}

function checks(d: RunDetail): Html {
  if (d.checks.length === 0) {
    return none(d.verificationPassed === null ? "Not verified yet." : "No check ran (the scan stopped it).");
  }
  return html`
    <table class="checks">
      <thead>
        <tr>
          <th>Command</th>
          <th>Result</th>
          <th>Exit</th>
          <th>Time</th>
        </tr>
      </thead>
      <tbody>${d.checks.map((c) =>
        html`
          <tr>
            <td><code>${clip(c.argv, 300)}</code></td>
            <td>${c.passed
              ? html`<span class="ok">passed</span>`
              : html`<span class="bad">${c.timedOut ? "timed out" : "failed"}</span>`}</td>
            <td>${c.exitCode === null ? "-" : c.exitCode}</td>
            <td>${c.durationMs === null ? "-" : `${(c.durationMs / 1000).toFixed(1)}s`}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

function scan(d: RunDetail): Html {
  const issues = d.scanIssues.length
    ? html`<ul class="findings">${
      d.scanIssues.map((i) =>
        html`<li>${codeName(i.code)} ${
          i.file
            ? html`
              <code class="file">${clip(i.file, 200)}</code>
            `
            : ""
        }${clip(i.message, 400)}</li>`
      )
    }</ul>`
    : none(d.verificationPassed === null ? "Not scanned yet." : "No scan findings.");
  const files = d.changedFiles.length
    ? html`<p class="files">Changed: ${
      d.changedFiles.slice(0, 50).map((f) =>
        html`
          <code class="file">${clip(f, 200)}</code>
        `
      )
    }${d.changedFiles.length > 50 ? `and ${d.changedFiles.length - 50} more` : ""}</p>`
    : "";
  return html`${issues}${files}`;
}

function selfReview(d: RunDetail): Html {
  if (!d.selfReview) {
    return none(
      d.state.selfReviewSkipped ? `Skipped: ${text(d.state.selfReviewSkipReason)}` : "No self-review.",
    );
  }
  return html`
    <p>${clip(d.selfReview.summary, 1200)}</p>
    <ul class="criteria">${d.selfReview.criteria.map((c) =>
      html`<li><span class="crit crit-${
        c.status === "met" ? "met" : c.status === "unmet" ? "unmet" : "uncertain"
      }">${c.status}</span> ${clip(c.criterion, 300)}</li>`
    )}</ul>
  `;
}

function review(d: RunDetail): Html {
  if (!d.review) return none("No review yet.");
  return html`<p><b class="verdict verdict-${
    d.review.verdict === "approve" ? "approve" : "revise"
  }">${d.review.verdict}</b> ${clip(d.review.summary, 1200)}</p>${
    d.review.findings.length
      ? html`<ul class="findings">${
        d.review.findings.map((f) =>
          html`<li><b>${f.priority}</b> <code class="file">${clip(f.file, 200)}${
            f.line ? `:${f.line}` : ""
          }</code> ${clip(f.problem, 400)}</li>`
        )
      }</ul>`
      : ""
  }`;
}

function usage(d: RunDetail): Html {
  const s = d.state;
  const u = s.workerUsage;
  return html`
    <dl class="usage">
      <dt>Tokens</dt>
      <dd>${int(u.input)} in (+${int(u.cacheRead)} cached, ${int(u.cacheWrite)} written) / ${int(
        u.output,
      )} out</dd>
      <dt>Cost</dt>
      <dd>${usd(Number(s.workerCostUsd))}</dd>
      <dt>Worker time</dt>
      <dd>${(Number(s.workerDurationMs) / 1000).toFixed(1)}s, ${int(Number(s.workerAttempts))} attempt(s)</dd>
      <dt>Profile</dt>
      <dd>${text(s.profile)} (${text(s.adapter)}, ${text(s.provider)})</dd>
      <dt>Fallback used</dt>
      <dd>${yesNo(s.fallbackUsed)}</dd>
      <dt>Commit</dt>
      <dd>${sha(s.implementationCommit ?? "-")} integrated ${sha(s.integratedCommit ?? "-")}</dd>
    </dl>
  `;
}

export function renderDetail(d: RunDetail): Html {
  const s = d.state;
  const active = ACTIVE.has(s.status);
  return html`<div class="detail-grid">
${
    section(
      "Goal",
      html`<p class="goal-full">${clip(d.goal ?? "(task.json missing)", 2000)}</p>${
        d.job
          ? html`<p class="muted">Task <code>${text(d.job.taskId)}</code> of job <a href="/jobs/${
            text(d.job.jobId)
          }">${text(d.job.jobId)}</a></p>`
          : ""
      }${
        d.allowedPaths.length
          ? html`<p class="muted">Allowed: ${
            d.allowedPaths.slice(0, 20).map((p) =>
              html`
                <code>${clip(p, 120)}</code>
              `
            )
          }</p>`
          : ""
      }${
        s.failure
          ? html`<p class="bad">Stopped by ${codeName(s.failure.code)}: ${clip(s.failure.message, 600)}</p>`
          : ""
      }`,
    )
  }
${section("Transitions", transitions(d))}
${
    section(
      "Time per phase",
      phaseFigure(runPhases(s.transitions, d.readAt ?? new Date(s.updatedAt), s.status), s.runId, {
        chart: d.phaseChart,
      }),
    )
  }
${section("Verification", checks(d))}
${section("Scan", scan(d))}
${section("Self-review", selfReview(d))}
${section("Review", review(d))}
${section("Usage", usage(d))}
${
    section(
      active ? "worker.log (live)" : "worker.log (last lines)",
      d.logTail.length || active
        ? html`
          <pre class="log" data-log="${s.runId}" ${active
            ? html`
              data-live="true"
            `
            : ""}>${d.logTail.join("\n")}</pre>
        `
        : none("No worker output."),
    )
  }
</div>`;
}
