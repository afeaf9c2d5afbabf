import assert from "node:assert/strict";
import { buildCohort, type CohortRun, median } from "./cohort.ts";

function runs(ratios: (number | null)[]): CohortRun[] {
  return ratios.map((savingRatio, i) => ({
    runId: `run-${i}`,
    createdAt: `2026-07-${String(i + 1).padStart(2, "0")}T00:00:00.000Z`,
    savingRatio,
    committed: i % 2 === 0,
    finalVerificationPassed: true,
    integrated: i % 2 === 0,
    unresolvedBlockingFindings: i === 0 ? 1 : 0,
    revisionRounds: i % 3,
  }));
}

Deno.test("median() of odd, even and empty lists", () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([]), null);
});

Deno.test("buildCohort() asks for more data below ten measured runs", () => {
  const c = buildCohort(runs([0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9]));
  assert.equal(c.sampleSize, 9);
  assert.equal(c.recommendation, "collect-more-data");
  // Near miss: a tenth run is enough.
  assert.equal(buildCohort(runs(Array(10).fill(0.9))).recommendation, "target-met");
});

Deno.test("buildCohort() recommends by the median of the last ten measured runs", () => {
  assert.equal(buildCohort(runs(Array(10).fill(0.29))).recommendation, "disable-implicit-delegation");
  assert.equal(buildCohort(runs(Array(10).fill(0.3))).recommendation, "keep-explicit-and-tune");
  assert.equal(buildCohort(runs(Array(10).fill(0.49))).recommendation, "keep-explicit-and-tune");
  assert.equal(buildCohort(runs(Array(10).fill(0.5))).recommendation, "target-met");
});

Deno.test("buildCohort() takes the newest ten measured runs and skips unmeasured ones", () => {
  // Five old runs at 0.1, then ten newer ones at 0.6 with two unmeasured among them.
  const all = runs([0.1, 0.1, 0.1, 0.1, 0.1, 0.6, null, 0.6, 0.6, 0.6, 0.6, null, 0.6, 0.6, 0.6, 0.6, 0.6]);
  const c = buildCohort(all.reverse());
  assert.equal(c.sampleSize, 10);
  assert.equal(c.medianSavingRatio, 0.6);
  assert.equal(c.unmeasuredRunsSkipped, 2);
  assert.equal(c.runIds[0], "run-16");
  assert.equal(c.recommendation, "target-met");
});

Deno.test("buildCohort() reports the quality of the same runs it judges", () => {
  const c = buildCohort(runs([0.4, 0.4, 0.4, 0.4]));
  assert.equal(c.committedVerificationPassRate, 0.5);
  assert.equal(c.integratedRate, 0.5);
  assert.equal(c.unresolvedBlockingFindings, 1);
  assert.equal(c.medianRevisionRounds, 0.5); // rounds 0, 1, 2, 0
});
