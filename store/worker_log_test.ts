import assert from "node:assert/strict";
import type { SpotEvent } from "../schemas/events.ts";
import { renderWorkerLogLine, stripTerminal, toolTarget, workerActivity } from "./worker_log.ts";

const AT = "2025-06-07T08:09:10.123Z";
const base = { at: AT, runId: "run-1" } as const;
const w = { ...base, phase: "run" } as const;
const ESC = "\x1b";

function line(event: SpotEvent): string {
  const out = renderWorkerLogLine(event);
  assert.ok(out !== null, `no line for ${event.type}`);
  assert.ok(!out.includes("\n"), `line has a newline: ${JSON.stringify(out)}`);
  assert.ok(!out.includes(ESC), `line has an escape: ${JSON.stringify(out)}`);
  return out;
}

Deno.test("stripTerminal() removes CSI, OSC and single-character escape sequences", () => {
  assert.equal(stripTerminal(`${ESC}[31mred${ESC}[0m`), "red");
  assert.equal(stripTerminal(`${ESC}[2J${ESC}[1;1Hclear`), "clear");
  assert.equal(stripTerminal(`${ESC}]0;evil title\x07after`), "after");
  assert.equal(stripTerminal(`${ESC}]8;;http://x${ESC}\\link${ESC}]8;;${ESC}\\`), "link");
  assert.equal(stripTerminal(`${ESC}Mup`), "up");
});

Deno.test("stripTerminal() removes C0 controls and DEL but keeps tab and newline", () => {
  assert.equal(stripTerminal("a\x00b\x07c\x08d\x7fe\rf"), "abcdef");
  assert.equal(stripTerminal("a\tb\nc"), "a\tb\nc");
});

Deno.test("renderWorkerLogLine() renders worker_start with time, phase and model", () => {
  assert.equal(line({ ...w, type: "worker_start", model: "gpt-x" }), "08:09:10 [run] worker started (gpt-x)");
  assert.equal(line({ ...w, type: "worker_start" }), "08:09:10 [run] worker started");
});

Deno.test("renderWorkerLogLine() renders worker_text on one line with escapes stripped", () => {
  const text = `${ESC}[31mhello${ESC}[0m\n\n  world ${ESC}]0;pwned\x07done`;
  assert.equal(
    line({ ...w, phase: "revise", type: "worker_text", text }),
    "08:09:10 [revise] says: hello world done",
  );
});

Deno.test("renderWorkerLogLine() clips long worker_text to 400 characters plus an ellipsis", () => {
  const out = line({ ...w, type: "worker_text", text: "x".repeat(1_000) });
  assert.equal(out, `08:09:10 [run] says: ${"x".repeat(400)}…`);
  const exact = line({ ...w, type: "worker_text", text: "y".repeat(400) });
  assert.equal(exact, `08:09:10 [run] says: ${"y".repeat(400)}`);
});

Deno.test("renderWorkerLogLine() renders worker_tool_call with the tool name and JSON input", () => {
  assert.equal(
    line({ ...w, type: "worker_tool_call", id: "t1", name: "read", input: { path: "src/a.ts" } }),
    '08:09:10 [run] tool read {"path":"src/a.ts"}',
  );
  assert.equal(
    line({ ...w, type: "worker_tool_call", id: "t1", name: "ls", input: undefined }),
    "08:09:10 [run] tool ls {}",
  );
});

Deno.test("renderWorkerLogLine() drops terminal sequences from tool input instead of showing them as \\u001b text", () => {
  const out = line({
    ...w,
    type: "worker_tool_call",
    id: "t",
    name: `x${ESC}[2J`,
    input: { s: `${ESC}[2Jclear${ESC}]52;c;aGk=\x07`, n: [`a${ESC}[1mb`] },
  });
  assert.equal(out, '08:09:10 [run] tool x {"s":"clear","n":["ab"]}');
});

Deno.test("renderWorkerLogLine() renders worker_tool_result ok with output and FAILED without", () => {
  assert.equal(
    line({ ...w, type: "worker_tool_result", id: "t", ok: true, output: "3 files\nchanged" }),
    "08:09:10 [run] tool ok: 3 files changed",
  );
  assert.equal(line({ ...w, type: "worker_tool_result", id: "t", ok: false }), "08:09:10 [run] tool FAILED");
});

Deno.test("renderWorkerLogLine() renders worker_usage token counts", () => {
  const usage = { input: 120, output: 45, cacheRead: 30, cacheWrite: 0 };
  assert.equal(
    line({ ...w, type: "worker_usage", usage }),
    "08:09:10 [run] tokens in 120 (+30 cached) out 45",
  );
});

Deno.test("renderWorkerLogLine() renders worker_retry and worker_error", () => {
  assert.equal(
    line({ ...w, type: "worker_retry", attempt: 2, message: "rate limited" }),
    "08:09:10 [run] retry 2: rate limited",
  );
  assert.equal(
    line({ ...w, phase: "self-review", type: "worker_error", message: `boom${ESC}[0m` }),
    "08:09:10 [self-review] error: boom",
  );
});

Deno.test("renderWorkerLogLine() renders worker_result ok and with an error", () => {
  assert.equal(
    line({ ...w, type: "worker_result", ok: true, stopReason: "end_turn" }),
    "08:09:10 [run] finished ok (end_turn)",
  );
  assert.equal(line({ ...w, type: "worker_result", ok: false }), "08:09:10 [run] finished with an error");
});

Deno.test("renderWorkerLogLine() renders a transition, with - for a null from", () => {
  assert.equal(
    line({ ...base, type: "transition", from: null, to: "prepared", reason: "created" }),
    "08:09:10 status - -> prepared: created",
  );
  assert.equal(
    line({ ...base, type: "transition", from: "running", to: "verifying", reason: "worker done" }),
    "08:09:10 status running -> verifying: worker done",
  );
});

Deno.test("renderWorkerLogLine() renders verify_command passed and FAILED", () => {
  const cmd = {
    ...base,
    type: "verify_command",
    index: 0,
    exitCode: 0,
    timedOut: false,
    durationMs: 5,
  } as const;
  assert.equal(line({ ...cmd, argv: ["deno", "test"], passed: true }), "08:09:10 check passed: deno test");
  assert.equal(
    line({ ...cmd, argv: ["npm", "run", "lint"], passed: false }),
    "08:09:10 check FAILED: npm run lint",
  );
});

Deno.test("renderWorkerLogLine() returns null for step events and other non-worker events", () => {
  const none: SpotEvent[] = [
    { ...base, type: "step_start", step: "scan", stepId: "s1", pid: 42 },
    {
      ...base,
      type: "step_end",
      step: "scan",
      stepId: "s1",
      exitCode: 0,
      signal: null,
      timedOut: false,
      durationMs: 10,
    },
    { ...base, type: "verify_result", passed: true, diffSha256: "a".repeat(64) },
    { ...base, type: "note", message: "hello" },
  ];
  for (const event of none) assert.equal(renderWorkerLogLine(event), null, event.type);
});

// Regression (fixed): store/worker_log.ts renderWorkerLogLine() puts worker_result's `stopReason` into the line
// raw (no clip()/stripTerminal()), so a worker-controlled stop reason can inject terminal escapes
// and extra lines into worker.log.
Deno.test({
  name: "renderWorkerLogLine() strips escapes and newlines from a worker_result stopReason",
  fn: () => {
    line({ ...w, type: "worker_result", ok: true, stopReason: `end${ESC}[2J\nFAKE 00:00:00 status x -> y` });
  },
});

Deno.test("stripTerminal() drops OSC 52 clipboard writes, terminated or not, and 8-bit escapes", () => {
  assert.equal(stripTerminal(`a${ESC}]52;c;aGVsbG8=\x07b`), "ab");
  assert.equal(stripTerminal(`a${ESC}]52;c;aGVsbG8=${ESC}\\b`), "ab");
  assert.equal(stripTerminal(`a${ESC}]52;c;aGVsbG8=`), "a");
  assert.equal(stripTerminal("a\x9b31mred\x9d0;title\x9cb"), "aredb");
});

Deno.test("workerActivity() names the tool and the file it touches, relative to the worktree", () => {
  const call = (name: string, input: unknown) => ({
    type: "worker_tool_call" as const,
    id: "1",
    name,
    input,
  });
  assert.equal(
    workerActivity(call("edit", { path: "/wt/run-1/src/add.ts" }), "/wt/run-1"),
    "edit src/add.ts",
  );
  assert.equal(
    workerActivity(call("Write", { file_path: "/elsewhere/x.ts" }), "/wt/run-1"),
    "Write /elsewhere/x.ts",
  );
  assert.equal(
    workerActivity(call("bash", { command: "deno   test\nadd_test.ts" })),
    "bash deno test add_test.ts",
  );
  assert.equal(workerActivity(call("shell", { command: ["git", "status"] })), "shell git status");
  assert.equal(workerActivity(call("ls", {})), "ls");
  assert.equal(workerActivity({ type: "worker_text", text: "hi" }), "writing");
  assert.equal(
    workerActivity({ type: "worker_usage", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } }),
    null,
  );
});

Deno.test("toolTarget() keeps a worker's terminal escapes and long paths off the progress line", () => {
  assert.equal(toolTarget({ path: "a\x1b]52;c;aGk=\x07b\x1b[2J.ts" }), "ab.ts");
  const long = toolTarget({ path: "d/".repeat(100) });
  assert.equal(long?.length, 80);
  assert.ok(long?.endsWith("…"));
  assert.equal(toolTarget("not an object"), null);
});
