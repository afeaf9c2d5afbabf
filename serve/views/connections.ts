/** The connections panel: installed worker CLIs and the profiles that matter. Pure. */
import { html } from "hono/html";
import type { Connections } from "../connections.ts";
import { type Html, when } from "./format.ts";

/** Installed CLIs, and missing ones a routed profile needs; the rest are one calm line, not failures. */
function adapters(c: Connections): Html {
  const shown = c.adapters.filter((a) => a.installed || a.needed || !a.known);
  const available = c.adapters.filter((a) => !shown.includes(a)).map((a) => a.name);
  return html`
    <table class="conn">
      <thead>
        <tr>
          <th>Adapter</th>
          <th>Installed</th>
          <th>Version</th>
          <th>Binary</th>
        </tr>
      </thead>
      <tbody>${shown.map((a) =>
        html`
          <tr data-adapter="${a.name}">
            <td data-label="Adapter"><b>${a.name}</b>${a.known ? "" : html`
              <span class="warn">unknown adapter</span>
            `}</td>
            <td data-label="Installed">${a.installed
              ? html`<span class="ok">yes</span>`
              : html`<span class="bad">no</span> <span class="muted">a profile you route to needs it</span>`}</td>
            <td data-label="Version">${a.version ?? "-"}</td>
            <td data-label="Binary"><code>${a.binary ?? "not found on PATH"}</code></td>
          </tr>
        `
      )}</tbody>
    </table>
    ${available.length
      ? html`
        <p class="muted available"
          data-available="${available.join(" ")}">Available to install: ${available.join(
            ", ",
          )} (docs/worker-adapters.md).</p>
      `
      : ""}
  `;
}

function profiles(c: Connections): Html {
  if (c.profiles.length === 0) return html`<p class="muted">No profile is configured.</p>`;
  return html`
    <table class="conn profiles">
      <thead>
        <tr>
          <th>Profile</th>
          <th>Worker</th>
          <th>Credential</th>
          <th>Why shown</th>
        </tr>
      </thead>
      <tbody>${c.profiles.map((p) =>
        html`
          <tr data-profile="${p.name}" data-routed="${p.routed ? "true" : "false"}">
            <td data-label="Profile"><b>${p.name}</b>${p.isDefault
              ? html`
                <span class="badge">default</span>
              `
              : ""}</td>
            <td data-label="Worker">${p.adapter} · ${p.provider}<div class="muted">${p.model}</div></td>
            <td data-label="Credential">${p.apiKeyEnv === null
              ? html`<span class="muted">none needed</span>`
              : p.credentialPresent
              ? html`<span class="ok">${p.apiKeyEnv} is set</span>`
              : !p.routed
              ? html`<span class="muted">${p.apiKeyEnv} not set; nothing routes to it</span>`
              : html`
                <span
                  class="bad">${p
                    .apiKeyEnv} is not set</span><div><code class="hint" data-copy="${p.exportHint ??
                    ""}">${p.exportHint ??
                    ""}</code> <button type="button" class="copy" data-copy="${p.exportHint ??
                    ""}">Copy</button></div>
              `}</td>
            <td data-label="Why shown" class="muted">${p.why.join(", ")}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

export function renderConnections(c: Connections | null): Html {
  return html`<section class="panel" id="connections-body" aria-label="Connections">
<div class="panel-head"><h2>Connections</h2><span class="muted">${
    c ? `probed ${when(c.generatedAt)}` : "not probed yet"
  }</span><button type="button" class="refresh" data-refresh="connections">Refresh</button></div>
${c ? html`${adapters(c)}${profiles(c)}` : html`<p class="muted">Probing the installed worker CLIs…</p>`}
</section>`;
}
