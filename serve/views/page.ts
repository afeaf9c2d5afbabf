/**
 * The page around the panels: the live one loads its script and style from
 * their own routes; the snapshot inlines them under a CSP that names their
 * hashes, so the file works offline and still runs no other script.
 */
import { html, raw } from "hono/html";
import css from "../assets/app.css" with { type: "text" };
import staticJs from "../assets/static.js" with { type: "text" };
import type { Html } from "./format.ts";

async function sha256Base64(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

export function head(title: string, extra: Html): Html {
  return html`
    <!doctype html>
    <html lang="en">
      <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${title}</title><link rel="icon" href="data:,">${extra}</head>
  `;
}

/** The live pages' links to each other; the snapshot has no server to follow them to. */
export function nav(current: "runs" | "jobs" | "fleet"): Html {
  const link = (name: "runs" | "jobs" | "fleet", href: string, label: string) =>
    name === current
      ? html`<a href="${href}" aria-current="page">${label}</a>`
      : html`<a href="${href}">${label}</a>`;
  return html`<nav class="views" aria-label="Views">${link("runs", "/", "Runs")} ${
    link("jobs", "/jobs", "Jobs")
  } ${link("fleet", "/fleet", "Fleet")}</nav>`;
}

/** The header's live controls; a static view (`?static=1`) has no script to drive them and says so. */
export function liveControls(isStatic: boolean): Html {
  return isStatic ? html`<span class="muted">static view: no live updates</span>` : html`
    <span id="live-status" class="live-status off">connecting…</span>
    <label class="auto"><input type="checkbox" id="auto-refresh"> Auto-refresh (60 s)</label>
    <span id="updated" class="muted"></span>
  `;
}

export function renderLivePage(
  panels: { runs: Html; plots: Html; connections: Html },
  csrfToken: string,
  o: { static?: boolean } = {},
): Html {
  return html`
    ${head(
      "spot dashboard",
      html`
        <meta name="spot-csrf" content="${csrfToken}">
        <link rel="stylesheet" href="/assets/app.css">
        ${o.static ? "" : html`<script src="/assets/app.js" defer></script>`}
      `,
    )}
    <body class="${o.static ? "live static" : "live"}">
      <header class="top"><h1>spot</h1>${nav("runs")}${liveControls(o.static === true)}</header>
      <main>
        <div id="plots-panel">${panels.plots}</div>
        <div id="runs-panel">${panels.runs}</div>
        <div id="connections-panel">${panels.connections}</div>
      </main>
    </body></html>
  `;
}

/** One self-contained file: inline style and script, allowed by hash and nothing else. */
export async function renderStaticPage(
  panels: { runs: Html; plots?: Html; jobs?: Html; connections: Html },
  generatedAt: string,
): Promise<string> {
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${await sha256Base64(css)}'`,
    `script-src 'sha256-${await sha256Base64(staticJs)}'`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  const page = html`
    ${head(
      "spot dashboard snapshot",
      html`
        <meta http-equiv="Content-Security-Policy" content="${csp}">
        <style>${raw(css)}</style>
      `,
    )}
    <body class="static">
      <header class="top"><h1>spot</h1><span class="muted">snapshot taken ${generatedAt}</span></header>
      <main>
        ${panels.plots ? html`<div id="plots-panel">${panels.plots}</div>` : ""}
        <div id="runs-panel">${panels.runs}</div>
        ${panels.jobs ? html`<div id="jobs-panel">${panels.jobs}</div>` : ""}
        <div id="connections-panel">${panels.connections}</div>
      </main>
      <script>${raw(staticJs)}</script>
    </body></html>
  `;
  return (await page).toString();
}
