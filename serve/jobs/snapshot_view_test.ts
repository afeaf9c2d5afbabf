import assert from "node:assert/strict";
import type { JobView } from "./read.ts";
import { renderJobsSnapshot } from "./snapshot_view.ts";

const PAYLOAD = `<img src=x onerror=alert(1)>"'&`;

function job(over: Partial<JobView> = {}): JobView {
  return {
    jobId: "job-20260101-000000-abcdef",
    status: "failed",
    reason: PAYLOAD,
    cwd: PAYLOAD,
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:01:00Z",
    taskCount: 2,
    byState: { failed: 1, succeeded: 1 },
    approval: "me",
    allowWrites: true,
    integration: null,
    events: [],
    totals: { costUsd: 0.25, tokensIn: 1, tokensOut: 2, elapsedMs: 60_000 },
    taskViews: [
      {
        id: "api",
        role: "builder",
        task: PAYLOAD,
        after: [],
        depth: 0,
        state: "succeeded",
        reason: null,
        runId: "job-20260101-000000-abcdef.api",
        runStatus: "reviewing",
        startedAt: null,
        endedAt: null,
        elapsedMs: 1_000,
        usage: null,
        costUsd: 0.25,
        transitions: [],
        segments: [],
      },
      {
        id: "ui",
        role: "builder",
        task: "ui",
        after: ["api"],
        depth: 1,
        state: "failed",
        reason: PAYLOAD,
        runId: "job-20260101-000000-abcdef.ui",
        runStatus: "failed",
        startedAt: null,
        endedAt: null,
        elapsedMs: null,
        usage: null,
        costUsd: null,
        transitions: [],
        segments: [],
      },
    ],
    ...over,
  };
}

Deno.test("renderJobsSnapshot() escapes what it shows and links only the runs the file holds", async () => {
  const out = (await renderJobsSnapshot([job()], 3, new Set(["job-20260101-000000-abcdef.api"]))).toString();
  assert.doesNotMatch(out, /<img/);
  assert.match(out, /&lt;img src=x/);
  assert.match(out, /data-show="job-20260101-000000-abcdef.api"/);
  assert.doesNotMatch(
    out,
    /data-show="job-20260101-000000-abcdef.ui"/,
    "a run the file does not hold is linked",
  );
  assert.match(out, /The newest 1 of 3 jobs/);
  assert.match((await renderJobsSnapshot([], 0, new Set())).toString(), /No job\./);
});
