import assert from "node:assert/strict";
import { measureParent, NO_START_REASON } from "./section.ts";
import type { AvailableSnapshot, ParentUsage } from "./usage.ts";
import { parentTotal } from "./usage.ts";

function snap(usage: ParentUsage, over: Partial<AvailableSnapshot> = {}): AvailableSnapshot {
  return {
    schemaVersion: 1,
    kind: "spot-parent-usage",
    agent: "codex",
    available: true,
    takenAt: "2026-07-14T09:00:00.000Z",
    threadId: "019a3c5e-7b21-7d40-9a6e-3f0c2b8d41a7",
    threadIdSource: "CODEX_THREAD_ID",
    sessionFile: "/x/rollout.jsonl",
    files: ["/x/rollout.jsonl"],
    bytesRead: 1,
    linesRead: 1,
    skippedLines: 0,
    compactions: 0,
    usage,
    totalTokens: parentTotal(usage),
    ...over,
  };
}
const A = { input: 100, cacheRead: 1000, cacheWrite: 0, output: 50, reasoning: 10 };
const B = { input: 300, cacheRead: 5000, cacheWrite: 0, output: 250, reasoning: 90 };

Deno.test("measureParent() reports end minus start, field by field", () => {
  const { section, measurement } = measureParent(snap(A), snap(B, { compactions: 1 }));
  assert.deepEqual(section.usage, { input: 200, cacheRead: 4000, cacheWrite: 0, output: 200, reasoning: 80 });
  assert.equal(section.totalTokens, 4400);
  assert.equal(section.compactionsDuringRun, 1);
  assert.equal(measurement.available && measurement.totalTokens, 4400);
});

Deno.test("measureParent() gives no number when a field went down between snapshots", () => {
  const { section, measurement } = measureParent(snap(B), snap({ ...B, output: 200 }));
  assert.equal(section.available, false);
  assert.equal(section.totalTokens, null);
  assert.match(section.reason!, /output went down/);
  assert.equal(measurement.available, false);
});

Deno.test("measureParent() explains a missing start snapshot, an unavailable one and a failed end", () => {
  assert.equal(measureParent(null, null).section.reason, NO_START_REASON);
  const trae = {
    schemaVersion: 1 as const,
    kind: "spot-parent-usage" as const,
    agent: "trae",
    available: false as const,
    takenAt: "t",
    reason: "Trae usage metering is not implemented",
  };
  assert.equal(measureParent(trae, null).section.reason, trae.reason);
  assert.match(
    measureParent(snap(A), new Error("no session file")).section.reason!,
    /end snapshot failed: no session/,
  );
  assert.match(
    measureParent(new Error("bad json"), null).section.reason!,
    /start snapshot is unusable: bad json/,
  );
});

Deno.test("measureParent() refuses snapshots of two different threads", () => {
  const { section } = measureParent(snap(A), snap(B, { threadId: "019aaaaa-0000-7000-8000-000000000000" }));
  assert.equal(section.available, false);
  assert.match(section.reason!, /different sessions/);
});
