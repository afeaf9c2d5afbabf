import assert from "node:assert/strict";
import { dashHref, MAX_EXPANDED, parseDashQuery, toggled } from "./dash_query.ts";

function parse(qs: string) {
  const r = parseDashQuery(new URLSearchParams(qs));
  if (!r.ok) throw new Error(r.message);
  return r.query;
}

Deno.test("parseDashQuery() reads filters, page and expanded rows, and dashHref() writes them back", () => {
  const q = parse("caller=codex&status=blocked&page=3&expand=run-a,run-b,run-a");
  assert.deepEqual(q.expand, ["run-a", "run-b"]);
  assert.equal(dashHref(q), "?caller=codex&status=blocked&page=3&expand=run-a%2Crun-b");
  assert.equal(dashHref(parse("")), "?");
  assert.deepEqual(parse(dashHref(q).slice(1)), q);
});

Deno.test("an empty parameter counts as absent, as a submitted form sends it", () => {
  assert.equal(parse("caller=&status=").caller, undefined);
});

Deno.test("toggled() opens a row in front and closes an open one, keeping at most a handful", () => {
  assert.deepEqual(toggled(["a1x"], "b2y"), ["b2y", "a1x"]);
  assert.deepEqual(toggled(["a1x", "b2y"], "a1x"), ["b2y"]);
  const many = Array.from({ length: MAX_EXPANDED }, (_, i) => `run-${i}`);
  assert.equal(toggled(many, "run-new").length, MAX_EXPANDED);
});
