import assert from "node:assert/strict";
import { fixtureState } from "../../tests/fixture_runs.ts";
import { toEntry } from "../../store/run_entry.ts";
import { runSeries } from "./series.ts";
import { renderPlotsPanel } from "./runs_plots.ts";

const PAYLOAD = `<img src=x onerror=alert(1)>"'&`;

Deno.test("the plots panel is plain markup: no inline style for the CSP to refuse, and worker-chosen names escaped", async () => {
  const entries = [
    toEntry(
      fixtureState("run-a1", { profile: PAYLOAD, workerCostUsd: 0.2 }, "2025-03-01T00:00:00.000Z"),
      null,
      null,
    ),
    toEntry(fixtureState("run-a2", {}, "2025-03-02T00:00:00.000Z"), null, null),
  ];
  const out = (await renderPlotsPanel({ entries, byHref: (by) => `?by=${by}` })).toString();
  assert.equal((out.match(/<svg[^>]*class="plot"/g) ?? []).length, 10, "five charts, each at two widths");
  assert.doesNotMatch(out, /<style|style="/);
  assert.doesNotMatch(out, /<img/);
  assert.match(out, /&lt;img src=x/);
  assert.match(out, /href="\?by=week"/);
  const series = runSeries(entries);
  assert.match(out, new RegExp(`data-bucket="${series.by}"`));
});

Deno.test("with no run the panel says so and draws nothing", async () => {
  const out = (await renderPlotsPanel({ entries: [] })).toString();
  assert.match(out, /No runs yet/);
  assert.doesNotMatch(out, /<svg/);
});
