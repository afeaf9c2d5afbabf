import assert from "node:assert/strict";
import { fixtureState } from "../../tests/fixture_runs.ts";
import { toEntry } from "../../store/run_entry.ts";
import type { RunState } from "../../schemas/run_state.ts";
import { bucketOf, chooseBucket, MAX_BUCKETS, OTHER, outcomeOf, runSeries, TOP_PROFILES } from "./series.ts";

function entry(id: string, at: string, over: Partial<RunState> = {}) {
  return toEntry(fixtureState(id, over, at), null, null);
}

Deno.test("bucketOf() gives the UTC day, or the Monday of the UTC week", () => {
  assert.equal(bucketOf("2025-03-02T23:59:59.000Z", "day"), "2025-03-02");
  assert.equal(
    bucketOf("2025-03-02T23:59:59.000Z", "week"),
    "2025-02-24",
    "a Sunday belongs to the week before",
  );
  assert.equal(bucketOf("2025-03-03T00:00:00.000Z", "week"), "2025-03-03");
  assert.equal(bucketOf("not a date", "day"), "");
});

Deno.test("chooseBucket(): days while the runs span under MAX_BUCKETS days, weeks after", () => {
  assert.equal(chooseBucket([]), "day");
  const start = Date.parse("2025-01-01T00:00:00.000Z");
  const at = (days: number) => new Date(start + days * 86_400_000).toISOString();
  assert.equal(chooseBucket([entry("run-a1", at(0)), entry("run-b1", at(MAX_BUCKETS - 2))]), "day");
  assert.equal(chooseBucket([entry("run-a1", at(0)), entry("run-b1", at(MAX_BUCKETS))]), "week");
});

Deno.test("runSeries() sums cost and parent tokens per period and profile, and counts outcomes", () => {
  const runs = [
    entry("run-a1", "2025-03-01T09:00:00.000Z", { profile: "cheap", workerCostUsd: 0.01 }),
    entry("run-a2", "2025-03-01T10:00:00.000Z", { profile: "cheap", workerCostUsd: 0.02 }),
    entry("run-b1", "2025-03-03T10:00:00.000Z", {
      profile: "spare",
      workerCostUsd: 0.5,
      status: "blocked",
      lastVerificationPassed: false,
      failure: { code: "SCOPE_VIOLATION", message: "x" } as RunState["failure"],
    }),
    entry("run-c1", "2025-03-03T11:00:00.000Z", { status: "running", lastVerificationPassed: null }),
  ];
  const s = runSeries(runs, "day");
  assert.deepEqual(s.buckets, ["2025-03-01", "2025-03-02", "2025-03-03"], "the empty day is on the axis");
  assert.equal(s.runs, 4);
  const cost = Object.fromEntries(s.cost.map((c) => [`${c.bucket} ${c.key}`, c.value]));
  assert.ok(Math.abs(cost["2025-03-01 cheap"] - 0.03) < 1e-12);
  assert.equal(cost["2025-03-03 spare"], 0.5);
  const avoided = s.avoided.reduce((n, c) => n + c.value, 0);
  assert.equal(avoided, runs.reduce((n, e) => n + e.tokensAvoided, 0));
  assert.deepEqual(s.outcomeNames, ["checks passed", "SCOPE_VIOLATION", "in progress"]);
  assert.equal(outcomeOf(runs[2]), "SCOPE_VIOLATION");
  const spare = s.compared.find((p) => p.profile === "spare")!;
  assert.deepEqual([spare.runs, spare.verified, spare.passed, spare.passRate], [1, 1, 0, 0]);
  assert.equal(
    s.compared.find((p) => p.profile === "replay")!.passRate,
    null,
    "a run in flight is not verified",
  );
});

Deno.test("runSeries() keeps the newest MAX_BUCKETS periods and stacks the less used profiles as other", () => {
  const start = Date.parse("2025-01-01T12:00:00.000Z");
  const runs = Array.from(
    { length: 80 },
    (_, i) =>
      entry(`run-${i}x`, new Date(start + i * 86_400_000).toISOString(), {
        profile: `p${i % (TOP_PROFILES + 2)}`,
      }),
  );
  const s = runSeries(runs, "day");
  assert.equal(s.buckets.length, MAX_BUCKETS);
  assert.equal(s.older, 80 - MAX_BUCKETS);
  assert.equal(s.runs, MAX_BUCKETS);
  assert.equal(s.profiles.length, TOP_PROFILES + 1);
  assert.equal(s.profiles.at(-1), OTHER);
  assert.ok(s.cost.some((c) => c.key === OTHER));
});
