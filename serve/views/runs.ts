/** The runs panel: summary cards, filters, the run table and its pager. Pure. */
import { html, raw } from "hono/html";
import type { IndexTotals } from "../../store/run_index.ts";
import type { RunEntry } from "../../store/run_entry.ts";
import { Status } from "../../schemas/run_state.ts";
import { dashHref, type DashQuery, toggled } from "../dash_query.ts";
import type { RunDetail } from "../detail.ts";
import type { AgentLine } from "../../agents/ls.ts";
import { renderDetail } from "./detail.ts";
import {
  badge,
  clip,
  clipMiddle,
  codeName,
  compact,
  type Html,
  int,
  pct,
  sha,
  text,
  usd,
  when,
} from "./format.ts";
import { savingRatio } from "../../usage/savings.ts";

/** The model as the run names it (provider prefix, a replay episode's path), cut in the middle past this. */
const MODEL_CHARS = 48;

/** Every caller spot knows, so the filter offers them before any run exists. */
const CALLERS = ["cli", "codex", "claude-code", "cursor", "trae", "workbuddy", "pi-recursive", "unknown"];
export const TABLE_COLUMNS = 11;

function card(label: string, value: string, note: Html | string = ""): Html {
  return html`
    <div
      class="card"><div class="card-label">${label}</div><div class="card-value">${value}</div>${note
        ? html`<div class="card-note">${note}</div>`
        : ""}</div>
  `;
}

function counts(map: Record<string, number>, kind: "status" | "caller"): Html {
  const entries = Object.entries(map).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return html`<span class="muted">none yet</span>`;
  return html`${entries.map(([k, n]) => html`<span class="count">${badge(kind, k)} ${int(n)}</span>`)}`;
}

export function renderSummary(t: IndexTotals): Html {
  const m = t.metered;
  const ratio = m.runs > 0 ? savingRatio(m.tokensAvoided, m.parentTokensSpent) : null;
  const gates = Object.entries(t.byFailure).sort((a, b) => b[1] - a[1]);
  return html`<section class="cards" aria-label="Summary">
${card("Runs", int(t.runs))}
<div class="card wide"><div class="card-label">By status</div><div class="card-counts">${
    counts(t.byStatus, "status")
  }</div></div>
<div class="card wide"><div class="card-label">By caller</div><div class="card-counts">${
    counts(t.byCaller, "caller")
  }</div></div>
${
    card(
      "Worker tokens",
      `${compact(t.tokensIn)} in / ${compact(t.tokensOut)} out`,
      `${compact(t.tokensCached)} cached`,
    )
  }
${card("Worker cost", usd(t.costUsd))}
${
    card(
      "Parent tokens avoided",
      compact(t.tokensAvoided),
      m.runs > 0
        ? `saving ${pct(ratio)} over ${int(m.runs)} metered run(s)`
        : "estimate; no parent meter yet",
    )
  }
${
    card(
      "Verification",
      `${int(t.verification.passed)} passed / ${int(t.verification.failed)} failed`,
      `${int(t.verification.none)} not verified`,
    )
  }
<div class="card wide"><div class="card-label">Gate outcomes</div><div class="card-counts">${
    gates.length
      ? gates.map(([code, n]) => html`<span class="count">${codeName(code)} ${int(n)}</span>`)
      : html`<span class="muted">no run stopped by a gate</span>`
  }</div></div>
</section>`;
}

function options(values: string[], current: string | undefined, all: string): Html {
  return html`<option value="">${all}</option>${
    values.map((v) =>
      html`
        <option value="${v}" ${current === v
          ? html`
            selected
          `
          : ""}>${v}</option>
      `
    )
  }`;
}

export function renderFilters(q: DashQuery, t: IndexTotals): Html {
  const callers = [...new Set([...CALLERS, ...Object.keys(t.byCaller)])].filter((c) =>
    /^[a-z][a-z0-9-]*$/.test(c)
  );
  return html`
    <form class="filters" id="filters" method="get" action="/">
      <label>Caller <select name="caller" id="filter-caller">${options(
        callers,
        q.caller,
        "all callers",
      )}</select></label>
      <label>Status <select name="status" id="filter-status">${options(
        Status.options,
        q.status,
        "all statuses",
      )}</select></label>
      ${q.static
        ? html`<input type="hidden" name="static" value="1"><button type="submit">Apply</button>`
        : html`
          <noscript><button type="submit">Apply</button></noscript>
        `}
    </form>
  `;
}

function verification(e: RunEntry): Html {
  if (e.verification === null) return html`<span class="muted">-</span>`;
  return e.verification ? html`<span class="ok">passed</span>` : html`<span class="bad">failed</span>`;
}

/** The agents that name a run (`spot agent`), each with its poll line. */
function agentNotes(agents: AgentLine[] | undefined): Html | string {
  if (!agents?.length) return "";
  return html`${
    agents.map((a) =>
      html`
        <div class="agent"
          data-agent="${a.name}"><span class="agent-name">agent ${a
            .name}</span> <code class="agent-line">${clip(a.line, 1000)}</code></div>
      `
    )
  }`;
}

function row(e: RunEntry, q: DashQuery, detail: RunDetail | null | undefined, agents?: AgentLine[]): Html {
  const s = e.summary;
  const open = q.expand.includes(s.runId);
  const href = dashHref(q, { expand: toggled(q.expand, s.runId) });
  const commit = s.integratedCommit ?? s.implementationCommit;
  return html`
    <tr class="run" data-run="${s.runId}" data-status="${text(s.status)}" data-caller="${text(s.caller)}">
      <td><a class="expand" href="${href}" data-expand="${s.runId}" aria-expanded="${open
        ? "true"
        : "false"}" aria-controls="detail-${s.runId}" title="Details">${open ? "▾" : "▸"}</a></td>
      <td
        data-label="Run"><span class="run-id">${s.runId}</span>${s.origin === "pi-worker"
          ? html`<div class="muted origin">from pi-worker, read-only</div>`
          : ""}${agentNotes(agents)}<div class="goal">${clip(e.goal ?? "", 140)}</div></td>
      <td data-label="Caller">${badge("caller", s.caller)}</td>
      <td data-label="Status">${badge("status", s.status)}${s.failure
        ? html`
          ${codeName(s.failure, "failure")}
        `
        : ""}</td>
      <td data-label="Worker">${text(s.profile)}<div class="muted model" title="${text(
        s.model,
      )}">${clipMiddle(
        s.model,
        MODEL_CHARS,
      )}</div></td>
      <td data-label="Tokens" class="num">${compact(e.tokensIn)} / ${compact(
        e.tokensOut,
      )}<div class="muted">${usd(e.costUsd)}</div></td>
      <td data-label="Revisions" class="num">${int(Number(s.revisionRound))}</td>
      <td data-label="Verification">${verification(e)}</td>
      <td data-label="Sandbox">${text(String(s.sandboxBackend ?? s.sandbox))}${s.fallbackUsed
        ? html`<div class="warn">fallback</div>`
        : ""}</td>
      <td data-label="Commit">${commit ? sha(commit) : html`<code>-</code>`}</td>
      <td data-label="Updated" class="muted">${when(s.updatedAt)}</td>
    </tr>${open
      ? html`
        <tr class="detail" id="detail-${s.runId}">
          <td colspan="${TABLE_COLUMNS}">${detail
            ? renderDetail(detail)
            : html`<p class="muted">This run's files could not be read.</p>`}</td>
        </tr>
      `
      : ""}
  `;
}

function pager(q: DashQuery, total: number): Html {
  const pages = Math.max(1, Math.ceil(total / q.limit));
  const first = total === 0 ? 0 : (q.page - 1) * q.limit + 1;
  const last = Math.min(total, q.page * q.limit);
  return html`<nav class="pager" aria-label="Pages">
<span>${int(first)}–${int(last)} of ${int(total)}</span>
${q.page > 1 ? html`<a href="${dashHref(q, { page: q.page - 1 })}" data-page="${q.page - 1}">newer</a>` : ""}
${
    q.page < pages
      ? html`<a href="${dashHref(q, { page: q.page + 1 })}" data-page="${q.page + 1}">older</a>`
      : ""
  }
</nav>`;
}

export interface RunsView {
  query: DashQuery;
  totals: IndexTotals;
  entries: RunEntry[];
  total: number;
  details: Map<string, RunDetail | null>;
  /** The named agents of the runs shown, by run id. */
  agents?: Map<string, AgentLine[]>;
  /** Set for the snapshot: a note in place of the pager, whose links need a server. */
  snapshotNote?: string;
}

/** Rendered rows by what they show: a refresh re-renders only the runs that changed. */
export class RowCache {
  readonly #rows = new Map<string, string>();
  constructor(readonly max = 1_000) {}

  row(e: RunEntry, q: DashQuery, detail: RunDetail | null | undefined, agents?: AgentLine[]): Html {
    // An open row holds a live log tail and is always rendered afresh.
    if (q.expand.includes(e.summary.runId)) return row(e, q, detail, agents);
    const key = `${dashHref(q)}\n${JSON.stringify(e)}\n${JSON.stringify(agents ?? [])}`;
    const hit = this.#rows.get(key);
    if (hit !== undefined) return raw(hit);
    const out = row(e, q, detail, agents);
    if (out instanceof Promise) return out;
    if (this.#rows.size >= this.max) this.#rows.delete(this.#rows.keys().next().value!);
    this.#rows.set(key, out.toString());
    return out;
  }
}

export function renderRunsPanel(v: RunsView, cache?: RowCache): Html {
  const q = v.query;
  return html`${renderSummary(v.totals)}
<section class="panel" aria-label="Runs">
<div class="panel-head"><h2>Runs</h2>${
    renderFilters(q, v.totals)
  }<button type="button" class="refresh" data-refresh="runs">Refresh</button></div>
${
    v.entries.length === 0
      ? html`<p class="empty">No runs${q.caller || q.status ? " match these filters" : " yet"}.</p>`
      : html`
        <div class="table-wrap">
          <table class="runs" id="runs-table">
            <thead>
              <tr>
                <th></th>
                <th>Run</th>
                <th>Caller</th>
                <th>Status</th>
                <th>Worker</th>
                <th>Tokens in / out</th>
                <th>Rev.</th>
                <th>Verification</th>
                <th>Sandbox</th>
                <th>Commit</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>${v.entries.map((e) => {
              const id = e.summary.runId;
              return cache
                ? cache.row(e, q, v.details.get(id), v.agents?.get(id))
                : row(e, q, v.details.get(id), v.agents?.get(id));
            })}</tbody>
          </table>
        </div>
      `
  }
${v.snapshotNote === undefined ? pager(q, v.total) : html`<p class="muted">${v.snapshotNote}</p>`}
</section>`;
}
