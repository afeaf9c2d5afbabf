/**
 * The jobs pages around their panel: the dashboard's style plus the jobs style, and one script of their own
 * (`/assets/jobs.js`) that follows the event stream and refreshes the panel from `/api/fragment/jobs…`.
 */
import { html } from "hono/html";
import { type Html, text } from "../views/format.ts";
import { head, liveControls, nav } from "../views/page.ts";

export function renderJobsPage(
  title: string,
  panel: Html,
  jobId: string | null = null,
  isStatic = false,
): Html {
  return html`
    ${head(
      title,
      html`
        <link rel="stylesheet" href="/assets/app.css">
        <link rel="stylesheet" href="/assets/jobs.css">
        ${isStatic ? "" : html`<script src="/assets/jobs.js" defer></script>`}
      `,
    )}
    <body class="${isStatic ? "live static jobs-page" : "live jobs-page"}">
      <header class="top"><h1>spot</h1>${nav("jobs")}${liveControls(isStatic)}</header>
      <main>
        <div id="jobs-panel" data-job="${text(jobId ?? "")}">${panel}</div>
      </main>
    </body></html>
  `;
}
