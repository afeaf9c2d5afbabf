import assert from "node:assert/strict";
import { renderDiff } from "./diff.ts";
import { renderInspect } from "./inspect.ts";
import { renderJobStatus } from "./job_status.ts";
import { renderList } from "./list.ts";
import { colorWanted, columns } from "./style.ts";

const ESC = "\x1b";
/** Escapes a worker could plant: OSC 52 (writes the clipboard), clear screen, cursor home, a title. */
const EVIL = `${ESC}]52;c;cm0gLXJmIH4=\x07${ESC}[2J${ESC}[H${ESC}]0;pwned\x07`;

/** Our colour codes (SGR), the only escape sequences a view may print. */
// deno-lint-ignore no-control-regex
const SGR = /\x1b\[\d+m/g;

/** Every escape sequence in the text is one of ours: SGR colour codes and nothing else. */
function onlyColour(text: string): void {
  const others = text.replace(SGR, "");
  assert.ok(!others.includes(ESC), `a foreign escape got through: ${JSON.stringify(text)}`);
}

Deno.test("colorWanted() follows NO_COLOR (any non-empty value) and a dumb terminal", () => {
  const env = (vars: Record<string, string>) => (n: string) => vars[n];
  assert.equal(colorWanted(env({ TERM: "xterm-256color" })), true);
  assert.equal(colorWanted(env({ NO_COLOR: "1" })), false);
  assert.equal(colorWanted(env({ NO_COLOR: "" })), true, "an empty NO_COLOR is unset");
  assert.equal(colorWanted(env({ TERM: "dumb" })), false);
});

Deno.test("columns() pads by the text's width, never counting the colour codes", () => {
  const lines = columns(["A", "B"], [["xx", "1"], ["x", "22"]], {
    paintCell: (i, t) => i === 0 ? `${ESC}[36m${t}${ESC}[39m` : t,
  });
  assert.deepEqual(lines.map((l) => l.replace(SGR, "")), ["A   B", "xx  1", "x   22"]);
});

const RUNS = [
  {
    runId: "r-2",
    status: "discarded",
    profile: "replay",
    model: "/tmp/e/fix.jsonl",
    caller: "cli",
    updatedAt: "2026-07-15T14:09:30.000Z",
    failure: null,
  },
  {
    runId: "pw-1",
    origin: "pi-worker",
    status: "failed",
    profile: "deepseek",
    model: "deepseek-v4-flash",
    caller: "codex",
    updatedAt: "2026-07-14T09:31:40.000Z",
    failure: `auth${EVIL}`,
    revisionRound: 1,
  },
];

Deno.test("renderList() aligns a row per run, shows any status, and says how many more there are", () => {
  const text = renderList({ runs: RUNS, count: 2, total: 5, offset: 0 });
  assert.equal(
    text,
    [
      "RUN   STATUS     PROFILE   MODEL              CALLER  UPDATED (UTC)     NOTE",
      "r-2   discarded  replay    fix.jsonl          cli     2026-07-15 14:09",
      "pw-1  failed     deepseek  deepseek-v4-flash  codex   2026-07-14 09:31  auth, from pi-worker, read-only, revision 1",
      "runs 1-2 of 5, newest first (--all shows every run)",
      "",
    ].join("\n"),
  );
  assert.equal(renderList({ runs: [], count: 0, total: 0 }), "No runs.\n");
  const coloured = renderList({ runs: RUNS, count: 2 }, { color: true });
  assert.ok(coloured.includes(`${ESC}[31mfailed${ESC}[39m`), coloured);
  onlyColour(coloured);
});

Deno.test("renderJobStatus() tallies the tasks and lists each with its run and reason", () => {
  const text = renderJobStatus({
    jobId: "job-1",
    status: "failed",
    reason: "a task failed",
    coordinatorAlive: false,
    tasks: [
      { id: "scout", role: "scout", state: "succeeded", runId: "run-a", executor: "build-2" },
      {
        id: "ui",
        role: "builder",
        state: "failed",
        runId: "run-b",
        reason: `OWNERSHIP_VIOLATED${EVIL}`,
        changedFiles: ["a", "b", "c", "d"],
      },
      { id: "review", role: "reviewer", state: "blocked" },
    ],
  });
  assert.equal(
    text,
    [
      "job job-1: failed (no coordinator running)",
      "  a task failed",
      "3 tasks: 1 succeeded, 1 failed, 1 blocked",
      "",
      "TASK    ROLE      STATE      RUN    DETAIL",
      "scout   scout     succeeded  run-a  on build-2",
      "ui      builder   failed     run-b  OWNERSHIP_VIOLATED; a b c +1 more",
      "review  reviewer  blocked    -",
      "",
    ].join("\n"),
  );
});

Deno.test("renderJobStatus() says what the job landed, or why nothing did", () => {
  const job = { jobId: "job-1", status: "succeeded", coordinatorAlive: false, tasks: [] };
  const summary = `nothing landed by the last attempt at builder "ui": POST_INTEGRATE_VERIFY_FAILED${EVIL}`;
  const text = renderJobStatus({ ...job, integration: { landed: false, summary } });
  assert.match(
    text,
    /^integration: nothing landed by the last attempt at builder "ui": POST_INTEGRATE_VERIFY_FAILED/m,
  );
  onlyColour(text);
  assert.doesNotMatch(renderJobStatus(job), /integration/);
});

Deno.test("renderInspect() summarises a blocked run with its gate problems and the next step", () => {
  const text = renderInspect({
    origin: "spot",
    state: {
      runId: "r-1",
      status: "blocked",
      profile: "replay",
      adapter: "replay",
      provider: "replay",
      model: "ep.jsonl",
      caller: "cli",
      workerBranch: "pi-worker/r-1",
      sourceBranch: "main",
      worktreePath: "/wt/r-1",
      createdAt: "2026-07-14T09:00:00.000Z",
      updatedAt: "2026-07-14T09:05:00.000Z",
      sandbox: "none",
      sandboxDetails: { optedOut: true },
      blockedReason: "1 scan finding(s)",
    },
    task: { goal: `Fix add()${EVIL}` },
    failure: { code: "SECURITY_BLOCKED", message: "1 scan finding(s)" },
    verification: {
      passed: false,
      security: {
        passed: false,
        changedFiles: ["x.ts"],
        addedLines: 1,
        deletedLines: 0,
        issues: [{ code: "PATH_OUT_OF_SCOPE", message: 'Path "x.ts" is out of scope' }],
      },
      commands: [],
    },
    workerUsage: {
      usage: { input: 1800, output: 240, cacheRead: 600, cacheWrite: 0 },
      costUsd: 0.0009,
      attempts: 1,
    },
    networkLogs: { "forwarder.jsonl": { provider: 3, refused: 1 } },
  });
  assert.equal(
    text,
    [
      "run r-1  blocked",
      "  goal      Fix add()",
      "  worker    replay: replay CLI, replay ep.jsonl; caller cli",
      "  sandbox   none (opted out)",
      "  branch    pi-worker/r-1 from main",
      "  worktree  /wt/r-1",
      "  time      created 2026-07-14 09:00, updated 2026-07-14 09:05 (UTC)",
      "  verified  FAILED: 0/0 checks; scan blocked (1 file, +1 -0)",
      '            PATH_OUT_OF_SCOPE: Path "x.ts" is out of scope',
      "  usage     1,800 in (+600 cached) · 240 out · $0.0009 · 1 worker launch",
      "  network   forwarder.jsonl provider 3, refused 1",
      "  failure   SECURITY_BLOCKED: 1 scan finding(s)",
      "",
    ].join("\n"),
  );
  // A run sent to the fleet names its executor and task; a stale report says so.
  const fleet = { role: "origin", queue: "nats://127.0.0.1:4222", taskId: "t-9", attempt: 2 };
  const sent = renderInspect({
    state: { runId: "r-2", status: "integrated", fleet },
    executor: "build-2",
    metricsStale: "metrics.json was written while the run was reviewing",
  });
  assert.match(sent, /\n {2}executor +build-2 \(fleet task t-9, attempt 2\)\n/);
  assert.match(sent, /\n {2}[^\n]*metrics\.json was written while the run was reviewing\n/);
  const waiting = renderInspect({
    state: { runId: "r-3", status: "running", fleet: { ...fleet, attempt: 1 } },
  });
  assert.match(waiting, /executor +not claimed yet \(fleet task t-9, attempt 1\)/);
  // Put back to prepared (recover after an interrupt), it is sent to the fleet again, not run here.
  const again = renderInspect({ state: { runId: "r-4", status: "prepared", fleet } });
  assert.match(again, /\n {2}next +spot run --id r-4 --on fleet\n/);
  // An ended run whose failure says what to do shows that as its next step.
  const moved = renderInspect({
    state: {
      runId: "r-6",
      status: "blocked",
      failure: {
        code: "SOURCE_CHANGED",
        message: "moved",
        details: { hint: "git cherry-pick abc lands it" },
      },
    },
  });
  assert.match(moved, /\n {2}next +git cherry-pick abc lands it\n/);
  const local = renderInspect({ state: { runId: "r-5", status: "prepared" } });
  assert.match(local, /\n {2}next +spot run --id r-5\n/);
  const original = renderInspect({ origin: "pi-worker", state: { runId: "pw-1", status: "reviewing" } });
  assert.ok(original.startsWith("run pw-1  reviewing (from pi-worker)\n"), original);
  assert.match(original, /next {6}read-only here: finish or clean it up with the original pi-worker/);
});

const HUNKS = {
  runId: "r-1",
  diffSha256: "ab".repeat(32),
  tier: "B",
  why: "one criterion is uncertain",
  count: 2,
  readBytes: 60,
  diffBytes: 90,
  selfReview: {
    summary: "fixed add",
    criteria: [{ criterion: "add(2, 3) returns 5", status: "uncertain", cites: 1 }],
    findings: [{ priority: "P3", at: "add.ts:2", problem: "no negative test" }],
  },
  hunks: [
    {
      file: "add.ts",
      newStart: 1,
      newCount: 3,
      reason: "uncertain: add(2, 3) returns 5",
      text: `@@ -1,3 +1,3 @@\n ctx\n-  return a - b;\n+  return a + b;${EVIL}`,
    },
    { file: "add.ts", newStart: 9, newCount: 1, reason: "not cited", text: "@@ -9 +9 @@\n-x\n+y" },
  ],
  coveredHunks: 1,
};

Deno.test("renderDiff() with --hunks shows the tier, the digest and each hunk with its reason", () => {
  assert.equal(
    renderDiff(HUNKS),
    [
      `diff of run r-1 (sha256 ${"ab".repeat(6)}…), tier B: one criterion is uncertain`,
      "",
      "self-review: fixed add",
      "  uncertain add(2, 3) returns 5 (1 cited)",
      "  P3 add.ts:2: no negative test",
      "",
      "diff --git a/add.ts b/add.ts",
      "# uncertain: add(2, 3) returns 5",
      "@@ -1,3 +1,3 @@",
      " ctx",
      "-  return a - b;",
      "+  return a + b;",
      "# not cited",
      "@@ -9 +9 @@",
      "-x",
      "+y",
      "",
      "2 hunks (60 of 90 bytes); 1 more cited by the self-review (spot diff --id r-1 shows all)",
      "",
    ].join("\n"),
  );
});

Deno.test("renderDiff() colours added, removed and hunk lines, and lets no worker escape through", () => {
  const text = renderDiff({
    ...HUNKS,
    selfReview: undefined,
    hunks: HUNKS.hunks.map((h) => ({ ...h, reason: null })),
  }, {
    color: true,
  });
  assert.ok(text.includes(`${ESC}[32m+  return a + b;${ESC}[39m`), text);
  assert.ok(text.includes(`${ESC}[31m-  return a - b;${ESC}[39m`), text);
  assert.ok(text.includes(`${ESC}[36m@@ -1,3 +1,3 @@${ESC}[39m`), text);
  assert.ok(!text.includes("tier B"), "the tier is for --hunks");
  onlyColour(text);
  assert.ok(!renderDiff(HUNKS, { color: false }).includes(ESC), "no colour, no escape at all");
});
