/**
 * The jobs pages around their panel: the dashboard's style plus the jobs style, and one script of their own
 * (`/assets/jobs.js`) that follows the event stream and refreshes the panel from `/api/fragment/jobs…`.
 */
import { html } from "hono/html";
import { type Html, text } from "../views/format.ts";
import { head, nav } from "../views/page.ts";

export function renderJobsPage(title: string, panel: Html, jobId: string | null = null): Html {
  return html`
    ${head(
      title,
      html`
        <link rel="stylesheet" href="/assets/app.css">
        <link rel="stylesheet" href="/assets/jobs.css">
        <script src="/assets/jobs.js" defer></script>
      `,
    )}
    <body class="live jobs-page">
      <header
        class="top"><h1>spot</h1>${nav(
          "jobs",
        )}<span id="live-status" class="live-status off">connecting…</span>
    <label class="auto"><input type="checkbox" id="auto-refresh"> Auto-refresh (60 s)</label>
    <span id="updated" class="muted"></span></header>
      <main>
        <div id="jobs-panel" data-job="${text(jobId ?? "")}">${panel}</div>
      </main>
    </body></html>
  `;
}
