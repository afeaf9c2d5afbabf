import assert from "node:assert/strict";
import { quantile, ratioLine } from "./bench_line.ts";

Deno.test("a median within its target is met, and the line keeps its parsed prefix", () => {
  const { text, verdict } = ratioLine("x", [50, 52, 51], [10, 11, 10], {
    target: 6,
    names: ["loop", "floor"],
    paired: true,
  });
  assert.equal(verdict, "met");
  assert.match(
    text,
    /^BENCH x ratio=5\.000 target=6 ratio_spread=\S+\.\.\S+ ratio_of_medians=5\.100 loop_ms=51\.0 loop_spread_ms=50\.0\.\.52\.0 /,
  );
  assert.match(text, / verdict=met$/);
});

Deno.test("the ratio of rounds measured side by side is the median of the rounds' own ratios", () => {
  // Rounds' ratios 5, 5 and 3.4: the ratio is 5, inside its spread; the sides' medians (102 over 28)
  // would pair one round's loop with another round's floor.
  const a = [100, 140, 102];
  const b = [20, 28, 30];
  const paired = ratioLine("x", a, b, { target: 4.5, names: ["a", "b"], paired: true });
  assert.match(
    paired.text,
    /^BENCH x ratio=5\.000 target=4\.5 ratio_spread=4\.200\.\.5\.000 ratio_of_medians=3\.643 /,
  );
  assert.equal(paired.verdict, "within_spread");
  const apart = ratioLine("x", a, b, { target: 4.5, names: ["a", "b"] });
  assert.match(apart.text, /^BENCH x ratio=3\.643 /);
  assert.doesNotMatch(apart.text, /ratio_of_medians/);
});

Deno.test("a median over its target whose lower quartile meets it is within the spread, not a miss", () => {
  // pair ratios 5.0, 6.5, 6.6, 7.0, 8.0: median of the sides 6.6..., lower quartile 6.5
  const a = [50, 65, 66, 70, 80];
  const b = [10, 10, 10, 10, 10];
  const { text, verdict } = ratioLine("x", a, b, { target: 6.55, names: ["a", "b"], paired: true });
  assert.equal(verdict, "within_spread");
  assert.equal(text.endsWith(" MISSED"), false);
});

Deno.test("a median over its target beyond the spread is a miss", () => {
  const a = [70, 71, 72, 73, 74];
  const b = [10, 10, 10, 10, 10];
  const { text, verdict } = ratioLine("x", a, b, { target: 6, names: ["a", "b"], paired: true });
  assert.equal(verdict, "missed");
  assert.match(text, / MISSED$/);
});

Deno.test("a ratio over a few ms is met when its absolute excess is within its ms target", () => {
  const a = [66, 64, 68];
  const b = [21, 22, 20];
  const judged = (excessTargetMs: number) =>
    ratioLine("s", a, b, { target: 2, names: ["start", "spawn"], paired: true, excessTargetMs });
  assert.equal(judged(50).verdict, "met");
  assert.match(judged(50).text, / excess_ms=45\.0 excess_spread_ms=\S+ excess_target_ms=50 /);
  assert.equal(judged(30).verdict, "missed");
});

Deno.test("quantile interpolates between order statistics", () => {
  assert.equal(quantile([1, 2, 3, 4, 5], 0.25), 2);
  assert.equal(quantile([4, 1, 3, 2], 0.5), 2.5);
  assert.equal(quantile([7], 0.75), 7);
});
