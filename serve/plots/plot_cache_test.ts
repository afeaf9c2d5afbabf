import assert from "node:assert/strict";
import { html } from "hono/html";
import { GAP_FACTOR, PlotCache } from "./plot_cache.ts";

Deno.test("PlotCache keeps a view until the index changes, and draws again no sooner than its drawing allows", async () => {
  let clock = 0;
  let draws = 0;
  const cache = new PlotCache(() => clock);
  const render = (label: string) => () => {
    draws++;
    clock += 100; // each drawing takes 100 ms
    return Promise.resolve(html`<section class="panel plots" id="plots">${label}</section>`);
  };
  assert.match(await cache.get("?", "g1", render("one")), /one/);
  assert.match(await cache.get("?", "g1", render("again")), /one/, "same index: no drawing");
  assert.equal(draws, 1);
  clock += 50;
  const stale = await cache.get("?", "g2", render("two"));
  assert.match(stale, /one/, "changed too soon: the last panel");
  assert.match(stale, new RegExp(`data-stale-ms="${GAP_FACTOR * 100 - 50}"`));
  assert.equal(draws, 1);
  clock += GAP_FACTOR * 100;
  assert.match(await cache.get("?", "g2", render("two")), /two/);
  assert.doesNotMatch(await cache.get("?", "g2", render("x")), /data-stale/);
  assert.match(await cache.get("?by=week", "g2", render("week")), /week/, "each view is its own");
  assert.equal(draws, 3);
});

Deno.test("PlotCache draws a view once when two ask at the same time", async () => {
  let draws = 0;
  const cache = new PlotCache(() => 0);
  const render = async () => {
    draws++;
    await new Promise((r) => setTimeout(r, 10));
    return html`<section class="panel plots">x</section>`;
  };
  await Promise.all([cache.get("?", "g", render), cache.get("?", "g", render)]);
  assert.equal(draws, 1);
});
