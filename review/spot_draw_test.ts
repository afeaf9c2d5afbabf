import assert from "node:assert/strict";
import { type Cited, drawSpotCheck } from "./spot_draw.ts";

const SEEDS = Array.from({ length: 400 }, (_, i) => `seed-${i}`);
const cited = (counts: Record<string, number>) =>
  new Map<string, Cited>(Object.entries(counts).map(([k, count]) => [k, { count, criteria: ["c"] }]));
/** How often each key is drawn over SEEDS, as a fraction. */
function rates(map: Map<string, Cited>, count: number, shown = new Set<string>()): Map<string, number> {
  const hits = new Map<string, number>();
  for (const seed of SEEDS) {
    const keys = drawSpotCheck(map, { count, shown, seed }).map((d) => d.key);
    assert.equal(new Set(keys).size, keys.length, "each hunk at most once");
    for (const k of keys) hits.set(k, (hits.get(k) ?? 0) + 1);
  }
  return new Map([...map.keys()].map((k) => [k, (hits.get(k) ?? 0) / SEEDS.length]));
}

Deno.test("drawSpotCheck() draws exactly `count` distinct hunks when every hunk is cited equally often", () => {
  const map = cited({ a: 1, b: 1, c: 1, d: 1, e: 1, f: 1 });
  for (const seed of SEEDS.slice(0, 20)) {
    const drawn = drawSpotCheck(map, { count: 2, shown: new Set(), seed });
    assert.equal(drawn.length, 2);
    assert.ok(drawn.every((d) => d.reason === "spot-check: c"));
  }
  const r = rates(map, 2);
  for (const [k, rate] of r) assert.ok(Math.abs(rate - 2 / 6) < 0.08, `${k}: ${rate}`);
});

Deno.test("drawSpotCheck() always reads a hunk cited once beside one cited ten times, and the other as often as a fair draw", () => {
  for (const [padded, once] of [["fix", "payload"], ["payload", "fix"]]) {
    const r = rates(cited({ [padded]: 10, [once]: 1 }), 1);
    assert.equal(r.get(once), 1, `${once} cited once`);
    assert.ok(Math.abs(r.get(padded)! - 0.5) < 0.08, `${padded} cited ten times: drawn ${r.get(padded)}`);
  }
  const reasons = new Map(
    SEEDS.slice(0, 40).flatMap((seed) =>
      drawSpotCheck(cited({ fix: 10, payload: 1 }), { count: 1, shown: new Set(), seed }).map((
        d,
      ) => [d.key, d.reason])
    ),
  );
  assert.match(reasons.get("payload")!, /^spot-check(, cited 1 of 11 times where its share is 5\.5)?: c$/);
  assert.equal(reasons.get("fix"), "spot-check: c");
});

Deno.test("drawSpotCheck(): no citation pattern lowers any hunk's chance below count / hunks", () => {
  const patterns = [
    { p: 20, a: 1, b: 1, c: 1, d: 1 },
    { p: 1, a: 20, b: 1, c: 1, d: 1 },
    { p: 1, a: 20, b: 20, c: 20, d: 20 },
    { p: 3, a: 3, b: 1, c: 1, d: 2 },
  ];
  for (const pattern of patterns) {
    for (const [k, rate] of rates(cited(pattern), 1)) {
      assert.ok(rate >= 1 / 5 - 0.05, `${JSON.stringify(pattern)}: ${k} drawn ${rate}`);
    }
  }
});

Deno.test("drawSpotCheck() weights the under-cited up: the least-cited hunk is read far more often than its share", () => {
  const r = rates(cited({ p: 1, a: 6, b: 6, c: 6, d: 6 }), 1);
  assert.ok(r.get("p")! > 0.9, `payload drawn ${r.get("p")}`);
});

Deno.test("drawSpotCheck() never spends a draw on a hunk already shown, and is the same for the same seed", () => {
  const map = cited({ a: 1, b: 1, c: 1 });
  for (const seed of SEEDS.slice(0, 30)) {
    const drawn = drawSpotCheck(map, { count: 1, shown: new Set(["a", "b"]), seed });
    assert.deepEqual(drawn.map((d) => d.key), ["c"]);
  }
  const again = (seed: string) =>
    drawSpotCheck(cited({ a: 3, b: 1, c: 1, d: 2 }), { count: 2, shown: new Set(), seed });
  assert.deepEqual(again("s"), again("s"));
  assert.deepEqual(drawSpotCheck(new Map(), { count: 3, shown: new Set(), seed: "s" }), []);
});
