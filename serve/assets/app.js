// The live dashboard's only script, served from /assets/app.js (the CSP allows no inline script).
// Server HTML is already escaped; this script adds worker text only through textContent.
"use strict";
(() => {
  const AUTO_KEY = "spot.autoRefresh";
  const AUTO_MS = 60_000;
  const DEBOUNCE_MS = 300;
  const PLOTS_DEBOUNCE_MS = 1_000;
  const csrf = document.querySelector('meta[name="spot-csrf"]')?.getAttribute("content") ?? "";
  const runsPanel = document.getElementById("runs-panel");
  const plotsPanel = document.getElementById("plots-panel");
  const connPanel = document.getElementById("connections-panel");
  const liveStatus = document.getElementById("live-status");
  const updated = document.getElementById("updated");
  const auto = document.getElementById("auto-refresh");

  const params = new URLSearchParams(location.search);
  const view = {
    caller: params.get("caller") ?? "",
    status: params.get("status") ?? "",
    page: Number(params.get("page") ?? "1") || 1,
    expand: (params.get("expand") ?? "").split(",").filter((s) => s !== ""),
    by: params.get("by") ?? "",
  };

  function query() {
    const p = new URLSearchParams();
    if (view.caller) p.set("caller", view.caller);
    if (view.status) p.set("status", view.status);
    if (view.page > 1) p.set("page", String(view.page));
    if (view.expand.length) p.set("expand", view.expand.join(","));
    if (view.by) p.set("by", view.by);
    return p;
  }

  function remember() {
    const s = query().toString();
    history.replaceState(null, "", s ? `?${s}` : location.pathname);
  }

  function stamp() {
    if (updated) updated.textContent = `updated ${new Date().toLocaleTimeString()}`;
  }

  let inFlight = false;
  let again = false;
  async function refreshRuns() {
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    try {
      const p = query();
      p.set("panel", "runs");
      const res = await fetch(`/api/fragment?${p}`, { headers: { accept: "text/html" } });
      if (res.ok && runsPanel) {
        runsPanel.innerHTML = await res.text();
        stamp();
      }
    } catch {
      // Offline for a moment: the next event, focus or auto-refresh tries again.
    } finally {
      inFlight = false;
      if (again) {
        again = false;
        void refreshRuns();
      }
    }
  }

  async function refreshConnections(probe) {
    try {
      if (probe) await fetch("/api/connections/probe", { method: "POST", headers: { "x-spot-csrf": csrf } });
      const res = await fetch("/api/fragment?panel=connections", { headers: { accept: "text/html" } });
      if (res.ok && connPanel) connPanel.innerHTML = await res.text();
    } catch {
      // As above.
    }
  }

  // The plots change only when a run's state does; the server answers from its cache otherwise.
  async function refreshPlots() {
    try {
      const p = query();
      p.delete("expand");
      p.delete("page");
      p.set("panel", "plots");
      const res = await fetch(`/api/fragment?${p}`, { headers: { accept: "text/html" } });
      if (res.ok && plotsPanel) {
        plotsPanel.innerHTML = await res.text();
        // Runs changed faster than the server redraws the plots: it says when to ask again.
        const stale = Number(plotsPanel.querySelector("[data-stale-ms]")?.getAttribute("data-stale-ms"));
        if (stale > 0) plotsSoon(stale + 50);
      }
    } catch {
      // As above.
    }
  }

  function refreshAll() {
    void refreshRuns();
    void refreshPlots();
    void refreshConnections(false);
  }

  let timer = 0;
  function soon() {
    clearTimeout(timer);
    timer = setTimeout(() => void refreshRuns(), DEBOUNCE_MS);
  }

  let plotTimer = 0;
  function plotsSoon(ms = PLOTS_DEBOUNCE_MS) {
    clearTimeout(plotTimer);
    plotTimer = setTimeout(() => void refreshPlots(), ms);
  }

  function appendLog(runId, line) {
    for (const pre of document.querySelectorAll("pre[data-log]")) {
      if (pre.getAttribute("data-log") !== runId) continue;
      pre.textContent += (pre.textContent ? "\n" : "") + line;
      pre.scrollTop = pre.scrollHeight;
    }
  }

  document.addEventListener("click", (e) => {
    const target = e.target instanceof Element ? e.target : null;
    const expand = target?.closest("[data-expand]");
    if (expand) {
      e.preventDefault();
      const id = expand.getAttribute("data-expand") ?? "";
      view.expand = view.expand.includes(id)
        ? view.expand.filter((x) => x !== id)
        : [id, ...view.expand].slice(0, 5);
      remember();
      void refreshRuns();
      return;
    }
    const by = target?.closest("[data-by]");
    if (by) {
      e.preventDefault();
      view.by = by.getAttribute("data-by") ?? "";
      remember();
      void refreshPlots();
      return;
    }
    const page = target?.closest("[data-page]");
    if (page) {
      e.preventDefault();
      view.page = Number(page.getAttribute("data-page")) || 1;
      remember();
      void refreshRuns();
      return;
    }
    const refresh = target?.closest("[data-refresh]");
    if (refresh) {
      if (refresh.getAttribute("data-refresh") === "connections") void refreshConnections(true);
      else {
        void refreshRuns();
        void refreshPlots();
      }
      return;
    }
    const copy = target?.closest("button[data-copy]");
    if (copy && navigator.clipboard) void navigator.clipboard.writeText(copy.getAttribute("data-copy") ?? "");
  });

  document.addEventListener("change", (e) => {
    const el = e.target;
    if (!(el instanceof HTMLSelectElement) || !el.form || el.form.id !== "filters") return;
    if (el.name === "caller") view.caller = el.value;
    if (el.name === "status") view.status = el.value;
    view.page = 1;
    remember();
    void refreshRuns();
  });

  if (auto instanceof HTMLInputElement) {
    auto.checked = localStorage.getItem(AUTO_KEY) === "on";
    auto.addEventListener("change", () => localStorage.setItem(AUTO_KEY, auto.checked ? "on" : "off"));
  }
  setInterval(() => {
    if (auto instanceof HTMLInputElement && auto.checked) refreshAll();
  }, AUTO_MS);
  addEventListener("focus", refreshAll);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshAll();
  });

  function setLive(text, ok) {
    if (!liveStatus) return;
    liveStatus.textContent = text;
    liveStatus.className = `live-status ${ok ? "on" : "off"}`;
  }

  // The stream opens once the page has loaded, so the load event (and a screenshot waiting on it) never
  // waits on a response that does not end. A tool that waits for the network to go quiet opens ?static=1.
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
    events.addEventListener("run", (e) => {
      try {
        const item = JSON.parse(e.data);
        if (typeof item.runId === "string" && typeof item.line === "string") appendLog(item.runId, item.line);
        if (typeof item.to === "string") plotsSoon();
      } catch {
        // Not ours; ignore.
      }
      soon();
    });
  }
  if (document.readyState === "complete") follow();
  else addEventListener("load", () => setTimeout(follow, 0), { once: true });
  stamp();
})();
