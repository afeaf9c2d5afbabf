/**
 * The dashboard as a Hono app value: `createApp(deps)` has no port and no
 * globals, so tests drive it with `app.request()`. GET routes only read;
 * the one POST (re-probe the worker CLIs) needs the page's CSRF token.
 */
import { Hono } from "hono";
import { html, raw } from "hono/html";
import type { Context } from "hono";
import type { EnvReader, SpotPaths } from "../store/paths.ts";
import type { RunIndex } from "../store/run_index.ts";
import type { Config } from "../schemas/config.ts";
import appJs from "./assets/app.js" with { type: "text" };
import css from "./assets/app.css" with { type: "text" };
import type { VersionRunner } from "./connections.ts";
import { Dashboard } from "./dashboard.ts";
import { dashHref, type DashQuery, parseDashQuery } from "./dash_query.ts";
import { type Binding, checkRequest, SECURITY_HEADERS } from "./guard.ts";
import { addJobRoutes } from "./jobs/routes.ts";
import { addFleetRoutes } from "./fleet.ts";
import { eventsRoute } from "./sse.ts";
import type { Html } from "./views/format.ts";
import { VERSION } from "../base/version.ts";
import { renderConnections } from "./views/connections.ts";
import { renderLivePage } from "./views/page.ts";
import { renderRunsPanel, RowCache } from "./views/runs.ts";
import { renderPlotsPanel } from "./plots/runs_plots.ts";
import { PlotCache } from "./plots/plot_cache.ts";
import { loadCharts } from "./plots/figure.ts";
import { cleanTransitions, runPhases } from "./plots/phases.ts";
import { loadRunDetail } from "./detail.ts";
import { RUN_ID_PATTERN } from "../schemas/constants.ts";

/** New events reach the page within about this long. */
export const POLL_MS = 500;
export const HEARTBEAT_MS = 15_000;

export interface AppDeps {
  paths: SpotPaths;
  config: Config;
  env: EnvReader;
  index: RunIndex;
  /** The address the server listens on; the port may be filled in once it is known. */
  binding: Binding;
  csrfToken?: string;
  /** Aborted when the server stops; ends every event stream. */
  signal?: AbortSignal;
  pollMs?: number;
  heartbeatMs?: number;
  now?: () => Date;
  runVersion?: VersionRunner;
  version?: string;
  /** Where an unexpected error goes (stderr by default); the client sees only a generic 500. */
  onError?: (error: unknown) => void;
}

function problem(c: Context, status: 400 | 403 | 404 | 500, code: string, message: string): Response {
  return c.json({ ok: false, error: { code, message } }, status);
}

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  const csrfToken = deps.csrfToken ?? crypto.randomUUID();
  const dashboard = new Dashboard(deps);
  const open = { count: 0 };
  const signal = deps.signal ?? new AbortController().signal;
  const startedAt = Date.now();
  const rows = new RowCache();
  const plotCache = new PlotCache();

  app.use("*", async (c, next) => {
    const verdict = checkRequest(c.req.raw, { binding: deps.binding, csrfToken });
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.header(k, v);
    if (!verdict.ok) return problem(c, verdict.status, verdict.code, verdict.message);
    c.header("cache-control", "no-store");
    await next();
  });

  /** Parses the view query, or answers 400 naming the bad parameters. */
  function withQuery(c: Context, fn: (q: DashQuery) => Promise<Response>): Promise<Response> | Response {
    const parsed = parseDashQuery(new URL(c.req.url).searchParams);
    if (!parsed.ok) return problem(c, 400, "BAD_REQUEST", `Invalid query: ${parsed.message}`);
    return fn(parsed.query);
  }

  /** The plots panel, drawn again only when the index changed (and not too often; plots/plot_cache.ts). */
  async function plots(q: DashQuery): Promise<Html> {
    await deps.index.refresh();
    // Loaded before the cache times a drawing: the one-off import is not what spaces drawings out.
    await loadCharts();
    const view = { ...q, expand: [], page: 1 };
    return raw(
      await plotCache.get(dashHref(view), deps.index.generation(), async () =>
        renderPlotsPanel({
          entries: await dashboard.plotted(),
          by: q.by,
          byHref: (by) => dashHref(view, { by }),
        })),
    );
  }

  async function panels(q: DashQuery): Promise<{ runs: Html; plots: Html; connections: Html }> {
    const empty = html``;
    const show = (p: DashQuery["panel"]) => q.panel === "all" || q.panel === p;
    const runs = show("runs") ? renderRunsPanel(await dashboard.runs(q), rows) : empty;
    const plotsPanel = show("plots") ? await plots(q) : empty;
    const connections = show("connections")
      ? renderConnections(await dashboard.connections().catch(() => null))
      : empty;
    return { runs, plots: plotsPanel, connections };
  }

  app.get(
    "/",
    (c) =>
      withQuery(c, async (q) => c.html(renderLivePage(await panels(q), csrfToken, { static: q.static }))),
  );

  app.get("/assets/app.js", (c) => c.body(appJs, 200, { "content-type": "text/javascript; charset=utf-8" }));
  app.get("/assets/app.css", (c) => c.body(css, 200, { "content-type": "text/css; charset=utf-8" }));

  app.get("/api/fragment", (c) =>
    withQuery(c, async (q) => {
      const p = await panels(q);
      return c.html(html`${p.plots}${p.runs}${p.connections}`);
    }));

  app.get("/api/runs", (c) =>
    withQuery(c, async (q) => {
      const view = await dashboard.runs({ ...q, expand: [] });
      return c.json({
        ok: true,
        generatedAt: dashboard.now().toISOString(),
        total: view.total,
        page: q.page,
        limit: q.limit,
        totals: view.totals,
        runs: view.entries.map((e) => ({
          ...e.summary,
          goal: e.goal,
          usage: { input: e.tokensIn, output: e.tokensOut, cacheRead: e.tokensCached },
          costUsd: e.costUsd,
          verificationPassed: e.verification,
          parentTokensAvoided: e.tokensAvoided,
          parentTokensSpent: e.parentTokensSpent,
          agents: view.agents?.get(e.summary.runId) ?? [],
        })),
      });
    }));

  app.get("/api/runs/:runId", async (c) => {
    const id = c.req.param("runId");
    const detail = RUN_ID_PATTERN.test(id) ? await loadRunDetail(deps.paths, id) : null;
    if (!detail) return problem(c, 404, "RUN_NOT_FOUND", `No run "${id.slice(0, 100)}" on this dashboard`);
    const s = detail.state;
    return c.json({
      ok: true,
      generatedAt: dashboard.now().toISOString(),
      run: {
        runId: s.runId,
        status: s.status,
        transitions: cleanTransitions(s.transitions),
        phases: runPhases(s.transitions, detail.readAt ?? dashboard.now(), s.status),
      },
    });
  });

  app.get("/api/connections", async (c) => c.json({ ok: true, ...(await dashboard.connections()) }));
  app.post(
    "/api/connections/probe",
    async (c) => c.json({ ok: true, ...(await dashboard.connections(true)) }),
  );

  addJobRoutes(app, { paths: deps.paths, now: dashboard.now }, problem);
  addFleetRoutes(app, { paths: deps.paths, config: deps.config, now: dashboard.now });

  app.get("/api/events", (c) =>
    eventsRoute(c, {
      index: deps.index,
      paths: deps.paths,
      pollMs: deps.pollMs ?? POLL_MS,
      heartbeatMs: deps.heartbeatMs ?? HEARTBEAT_MS,
      signal,
      open,
    }));

  app.get("/health", (c) =>
    c.json({
      ok: true,
      // spot's own version unless the caller names another (deno.json, as `spot --version` says).
      version: deps.version ?? VERSION,
      streams: open.count,
      uptimeMs: Date.now() - startedAt,
    }));

  app.notFound((c) =>
    problem(c, 404, "NOT_FOUND", `No route for ${c.req.method} ${new URL(c.req.url).pathname.slice(0, 200)}`)
  );
  app.onError((error, c) => {
    (deps.onError ?? ((e: unknown) => console.error("spot serve:", e)))(error);
    return problem(c, 500, "INTERNAL", "The dashboard failed to answer; see the server's stderr");
  });
  return app;
}
