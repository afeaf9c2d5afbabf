/**
 * The dashboard's fleet page (docs/fleet.md, docs/dashboard.md): `/fleet` and `/api/fleet` show the executors on
 * the configured queue (status, load and capacity, last heartbeat, sandbox, profiles) and the runs here whose turn
 * ran on one of them (which executor, which attempt). With no queue configured the page says so and nothing of the
 * fleet is loaded. GET only; nothing is changed.
 */
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { lazy } from "../base/lazy.ts";
import type { ExecutorSeen } from "../queue/item.ts";
import type { Config } from "../schemas/config.ts";
import type { SpotPaths } from "../store/paths.ts";
import { RunStore } from "../store/run_store.ts";
import { badge, type Html, text, when } from "./views/format.ts";
import { head, nav } from "./views/page.ts";

/** The newest runs the page lists. */
const MAX_RUNS = 100;

interface FleetView {
  backend: string;
  where: string | null;
  executors: ExecutorSeen[];
  error: string | null;
  runs: { runId: string; status: string; executor: string | null; attempt: number | null; taskId: string }[];
}

async function fleetView(deps: { paths: SpotPaths; config: Config }): Promise<FleetView> {
  const backend = deps.config.queue.backend;
  let where: string | null = null;
  let executors: ExecutorSeen[] = [];
  let error: string | null = null;
  if (backend === "nats") {
    try {
      ({ where, executors } =
        await (await lazy<typeof import("../fleet/ls.ts")>("../fleet/ls.ts", import.meta.url))
          .listOn(deps.config.queue));
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
  }
  const runs = (await new RunStore(deps.paths).all()).filter((s) => s.fleet?.role === "origin").reverse()
    .slice(0, MAX_RUNS).map((s) => ({
      runId: s.runId,
      status: s.status,
      executor: s.fleet?.executor ?? null,
      attempt: s.fleet?.attempt ?? null,
      taskId: s.fleet!.taskId,
    }));
  return { backend, where, executors, error, runs };
}

function renderFleet(v: FleetView): Html {
  const executors = v.backend !== "nats"
    ? html`<p class="muted">No queue is configured (queue.backend is ${v.backend}): every run works here.</p>`
    : v.error
    ? html`<p class="reason">${v.error}</p>`
    : !v.executors.length
    ? html`<p class="muted">No executor has joined ${v.where}.</p>`
    : html`
      <table class="runs">
        <thead>
          <tr>
            <th>executor</th>
            <th>status</th>
            <th>load</th>
            <th>last heartbeat</th>
            <th>sandbox</th>
            <th>profiles</th>
            <th>running</th>
          </tr>
        </thead>
        <tbody>${v.executors.map((e) =>
          html`
            <tr>
              <td>${e.name} <span class="muted">${e.host}</span></td>
              <td>${badge("status", e.status)}</td>
              <td>${e.load}/${e.capacity}</td>
              <td>${when(e.heartbeatAt)}</td>
              <td>${e.sandbox}</td>
              <td>${e.profiles.join(", ")}</td>
              <td>${e.running.map((r) => `${r.runId} (attempt ${r.attempt})`).join(", ")}</td>
            </tr>
          `
        )}</tbody>
      </table>
    `;
  const runs = !v.runs.length ? html`<p class="muted">No run here has gone to the fleet.</p>` : html`
    <table class="runs">
      <thead>
        <tr>
          <th>run</th>
          <th>status</th>
          <th>ran on</th>
          <th>attempt</th>
          <th>task</th>
        </tr>
      </thead>
      <tbody>${v.runs.map((r) =>
        html`
          <tr>
            <td>${r.runId}</td>
            <td>${badge("status", r.status)}</td>
            <td>${r.executor ?? "not claimed yet"}</td>
            <td>${text(r.attempt ?? "-")}</td>
            <td class="muted">${r.taskId}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
  return html`
    <section class="panel"><h2>Executors${v.where
      ? html`
        <span class="muted">on ${v.where}</span>
      `
      : ""}</h2>
        ${executors}</section>
    <section class="panel"><h2>Runs sent to the fleet</h2>${runs}</section>
  `;
}

export function addFleetRoutes(app: Hono, deps: { paths: SpotPaths; config: Config; now: () => Date }): void {
  app.get(
    "/api/fleet",
    async (c: Context) =>
      c.json({ ok: true, generatedAt: deps.now().toISOString(), ...(await fleetView(deps)) }),
  );
  app.get("/fleet", async (c: Context) =>
    c.html(html`
      ${head("spot fleet", html`<link rel="stylesheet" href="/assets/app.css">`)}
            <body class="live">
        <header class="top"><h1>spot</h1>${nav("fleet")}</header>
        <main>${renderFleet(await fleetView(deps))}</main>
      </body></html>
    `));
}
