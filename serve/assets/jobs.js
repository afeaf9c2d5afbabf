// The jobs pages' only script, served from /assets/jobs.js (the CSP allows no inline script). It refreshes
// the panel from /api/fragment/jobs… when the event stream says a job (or, on a job's page, one of its task
// runs) changed, keeps running tasks' times counting, and draws the graph's `after` edges. Server HTML is
// already escaped; this script writes no text it did not compute itself.
"use strict";
(() => {
  const AUTO_KEY = "spot.autoRefresh";
  const AUTO_MS = 60_000;
  const DEBOUNCE_MS = 250;
  const SVG = "http://www.w3.org/2000/svg";
  const panel = document.getElementById("jobs-panel");
  const jobId = panel?.getAttribute("data-job") ?? "";
  const liveStatus = document.getElementById("live-status");
  const updated = document.getElementById("updated");
  const auto = document.getElementById("auto-refresh");
  let renderedAt = Date.now();

  function duration(ms) {
    const s = Math.floor(ms / 1000);
    if (s < 60) return `${s}s`;
    const m = Math.floor(s / 60);
    if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
    return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
  }

  function tick() {
    for (const el of document.querySelectorAll("[data-elapsed]")) {
      const base = Number(el.getAttribute("data-elapsed"));
      if (Number.isFinite(base)) el.textContent = duration(base + Date.now() - renderedAt);
    }
  }

  /** One curve per `after`, from the predecessor's right edge to the task's left edge. */
  function drawEdges() {
    const graph = document.getElementById("job-graph");
    const svg = graph?.querySelector("svg.edges");
    if (!graph || !svg) return;
    svg.replaceChildren();
    if (getComputedStyle(svg).display === "none") return;
    svg.setAttribute("width", String(graph.scrollWidth));
    svg.setAttribute("height", String(graph.scrollHeight));
    const box = graph.getBoundingClientRect();
    const at = (el) => {
      const r = el.getBoundingClientRect();
      return {
        left: r.left - box.left + graph.scrollLeft,
        right: r.right - box.left + graph.scrollLeft,
        mid: r.top - box.top + graph.scrollTop + Math.min(r.height / 2, 24),
      };
    };
    const nodes = new Map(
      [...graph.querySelectorAll("[data-task]")].map((n) => [n.getAttribute("data-task"), n]),
    );
    for (const [, node] of nodes) {
      for (const before of (node.getAttribute("data-after") ?? "").split(" ").filter((s) => s !== "")) {
        const from = nodes.get(before);
        if (!from) continue;
        const a = at(from);
        const b = at(node);
        const bend = Math.max(24, (b.left - a.right) / 2);
        const path = document.createElementNS(SVG, "path");
        path.setAttribute(
          "d",
          `M ${a.right} ${a.mid} C ${a.right + bend} ${a.mid}, ${b.left - bend} ${b.mid}, ${b.left} ${b.mid}`,
        );
        const state = from.getAttribute("data-state") ?? "";
        path.setAttribute("class", `edge edge-${/^[a-z]{1,20}$/.test(state) ? state : "other"}`);
        path.setAttribute("data-edge", `${before} ${node.getAttribute("data-task")}`);
        svg.append(path);
      }
    }
  }

  function stamp() {
    if (updated) updated.textContent = `updated ${new Date().toLocaleTimeString()}`;
  }

  let inFlight = false;
  let again = false;
  async function refresh() {
    if (!panel) return;
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    try {
      const res = await fetch(`/api/fragment${location.pathname}${location.search}`, {
        headers: { accept: "text/html" },
      });
      if (res.ok) {
        panel.innerHTML = await res.text();
        renderedAt = Date.now();
        drawEdges();
        stamp();
      }
    } catch {
      // Offline for a moment: the next event, focus or auto-refresh tries again.
    } finally {
      inFlight = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  }

  let timer = 0;
  function soon() {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), DEBOUNCE_MS);
  }

  document.addEventListener("click", (e) => {
    const target = e.target instanceof Element ? e.target : null;
    const open = target?.closest("a[data-open]");
    if (open) {
      e.preventDefault();
      const p = new URLSearchParams(location.search);
      p.set("task", open.getAttribute("data-open") ?? "");
      history.replaceState(null, "", `?${p}`);
      void refresh();
      return;
    }
    if (target?.closest("[data-refresh]")) void refresh();
  });

  if (auto instanceof HTMLInputElement) {
    auto.checked = localStorage.getItem(AUTO_KEY) === "on";
    auto.addEventListener("change", () => localStorage.setItem(AUTO_KEY, auto.checked ? "on" : "off"));
  }
  setInterval(() => {
    if (auto instanceof HTMLInputElement && auto.checked) void refresh();
  }, AUTO_MS);
  setInterval(tick, 1000);
  addEventListener("focus", () => void refresh());
  addEventListener("resize", drawEdges);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") void refresh();
  });

  function setLive(text, ok) {
    if (!liveStatus) return;
    liveStatus.textContent = text;
    liveStatus.className = `live-status ${ok ? "on" : "off"}`;
  }

  function parse(e) {
    try {
      return JSON.parse(e.data);
    } catch {
      return null;
    }
  }

  // As on the runs page: the stream opens after load; ?static=1 serves the page without this script.
  function follow() {
    if (!("EventSource" in window)) {
      setLive("no live updates in this browser; use Refresh or auto-refresh", false);
      return;
    }
    const events = new EventSource("/api/events");
    events.addEventListener("open", () => setLive("live", true));
    events.addEventListener(
      "error",
      () => setLive("reconnecting; refresh and auto-refresh still work", false),
    );
    events.addEventListener("job", (e) => {
      const item = parse(e);
      if (item && (!jobId || item.jobId === jobId)) soon();
    });
    events.addEventListener("run", (e) => {
      const item = parse(e);
      // A task's run is `<job>.<task>`: its progress changes the node's run status, time and cost.
      if (jobId && item && typeof item.runId === "string" && item.runId.startsWith(`${jobId}.`)) soon();
    });
  }
  if (document.readyState === "complete") follow();
  else addEventListener("load", () => setTimeout(follow, 0), { once: true });
  drawEdges();
  stamp();
})();
