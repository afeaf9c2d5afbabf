import assert from "node:assert/strict";
import { depths, layers } from "./layout.ts";

const t = (id: string, ...after: string[]) => ({ id, after });

Deno.test("layers() puts each task one column after its deepest predecessor", () => {
  const tasks = [
    t("review", "api", "ui"),
    t("scout"),
    t("api", "scout"),
    t("ui", "scout"),
    t("docs", "scout"),
  ];
  assert.deepEqual(layers(tasks).map((c) => c.map((x) => x.id)), [
    ["scout"],
    ["api", "ui", "docs"],
    ["review"],
  ]);
});

Deno.test("depths() follows the longest chain, not the first predecessor", () => {
  const d = depths([t("a"), t("b", "a"), t("c", "b"), t("d", "a", "c")]);
  assert.deepEqual(Object.fromEntries(d), { a: 0, b: 1, c: 2, d: 3 });
});

Deno.test("a predecessor the job does not have, or a loop in a hand-edited job, still lays out", () => {
  assert.deepEqual(Object.fromEntries(depths([t("a", "ghost")])), { a: 0 });
  const looped = layers([t("a", "b"), t("b", "a"), t("c")]);
  assert.equal(looped.flat().length, 3);
  assert.deepEqual(looped.flat().map((x) => x.id).sort(), ["a", "b", "c"]);
});
