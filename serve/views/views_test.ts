import assert from "node:assert/strict";
import { html } from "hono/html";
import { fixtureState } from "../../tests/fixture_runs.ts";
import { renderDetail } from "./detail.ts";
import { text } from "./format.ts";
import type { RunDetail } from "../detail.ts";

const PAYLOAD = `<img src=x onerror=alert(1)></script><script>alert(2)</script>"'&`;

function detail(over: Partial<RunDetail> = {}): RunDetail {
  return {
    state: fixtureState("run-v", { status: "running" }),
    goal: PAYLOAD,
    allowedPaths: [PAYLOAD],
    checks: [{ argv: PAYLOAD, passed: false, exitCode: 1, timedOut: false, durationMs: 5 }],
    verificationPassed: false,
    scanIssues: [{ code: "SCOPE", file: PAYLOAD, message: PAYLOAD }],
    changedFiles: [PAYLOAD],
    selfReview: { summary: PAYLOAD, criteria: [{ criterion: PAYLOAD, status: PAYLOAD }] },
    review: {
      verdict: PAYLOAD,
      summary: PAYLOAD,
      findings: [{ priority: PAYLOAD, file: PAYLOAD, line: 1, problem: PAYLOAD }],
    },
    logTail: [PAYLOAD],
    job: null,
    ...over,
  };
}

Deno.test("renderDetail() escapes every worker-written string", async () => {
  const out = (await renderDetail(detail())).toString();
  assert.ok(!out.includes("<img"), "no raw tag");
  assert.ok(!out.includes("<script>"), "no raw script");
  assert.ok(out.includes("&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&lt;script&gt;"));
  assert.match(out, /data-log="run-v"\s+data-live="true"/);
});

Deno.test("text() turns a JSON object that claims to be escaped into plain text", async () => {
  const forged = JSON.parse(`{"isEscaped": true, "x": "<img src=x onerror=alert(1)>"}`);
  // The near miss: handed to the html tag as it is, hono would trust the object's own claim.
  const trusted = (await html`<p>${forged}</p>`).toString();
  assert.ok(!trusted.includes("&lt;img"));
  const safe = (await html`<p>${text(forged)}</p>`).toString();
  assert.ok(safe.includes("&lt;img src=x onerror=alert(1)&gt;"));
  assert.ok(!safe.includes("<img"));
});

Deno.test("a state with odd field types still renders", async () => {
  const state = {
    ...fixtureState("run-odd"),
    transitions: "nope",
    failure: "x",
  } as unknown as RunDetail["state"];
  const out = (await renderDetail(detail({ state, selfReview: null, review: null, logTail: [] }))).toString();
  assert.match(out, /No transitions recorded/);
  assert.match(out, /No review yet/);
});

Deno.test("renderDetail() links a job task's run to its job, and a plain run to none", async () => {
  const job = { jobId: "job-20260101-000000-abcdef", taskId: "api" };
  const out = (await renderDetail(detail({ job }))).toString();
  assert.match(out, /Task <code>api<\/code> of job <a href="\/jobs\/job-20260101-000000-abcdef">/);
  assert.doesNotMatch((await renderDetail(detail())).toString(), /of job <a/);
});
