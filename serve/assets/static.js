// The snapshot's script, inlined under a CSP hash: show one run's details, filter rows. No data inside.
"use strict";
(() => {
  // Rows start folded, and their arrows say so.
  for (const row of document.querySelectorAll("tr.detail")) row.hidden = true;
  for (const a of document.querySelectorAll("[data-expand]")) {
    a.setAttribute("aria-expanded", "false");
    a.textContent = "▸";
  }
  document.addEventListener("click", (e) => {
    // A job task's run (a link in its table or a box of its graph, an SVG link): open that run's details; the
    // link's own anchor then scrolls to them.
    const link = e.target instanceof Element ? e.target.closest("[data-show], a[href^='#detail-']") : null;
    if (link) {
      const id = link.getAttribute("data-show") ?? link.getAttribute("href").slice("#detail-".length);
      const detail = document.getElementById(`detail-${id}`);
      if (detail) detail.hidden = false;
      for (const a of document.querySelectorAll("[data-expand]")) {
        if (a.getAttribute("data-expand") !== id) continue;
        a.setAttribute("aria-expanded", "true");
        a.textContent = "▾";
      }
      return;
    }
    const target = e.target instanceof Element ? e.target.closest("[data-expand]") : null;
    if (!target) return;
    e.preventDefault();
    const detail = document.getElementById(`detail-${target.getAttribute("data-expand")}`);
    if (!detail) return;
    detail.hidden = !detail.hidden;
    target.setAttribute("aria-expanded", detail.hidden ? "false" : "true");
    target.textContent = detail.hidden ? "▸" : "▾";
  });
  document.addEventListener("change", () => {
    const caller = document.getElementById("filter-caller")?.value ?? "";
    const status = document.getElementById("filter-status")?.value ?? "";
    for (const row of document.querySelectorAll("tr.run")) {
      const show = (!caller || row.getAttribute("data-caller") === caller) &&
        (!status || row.getAttribute("data-status") === status);
      row.hidden = !show;
      const detail = document.getElementById(`detail-${row.getAttribute("data-run")}`);
      if (detail && !show) detail.hidden = true;
    }
  });
})();
