import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { WorkerEvent } from "../../schemas/events.ts";
import { finishPi, parsePiLine, TOOL_OUTPUT_CAP } from "./pi.ts";
import { newParseState, type ParseState, type WorkerExit } from "../types.ts";

const FIXTURES = new URL("../../tests/fixtures/pi/", import.meta.url);
const CLEAN_EXIT: WorkerExit = {
  exitCode: 0,
  signal: null,
  timedOut: false,
  cancelled: false,
  stderrTail: "",
};

async function parseFixture(name: string): Promise<{ events: WorkerEvent[]; state: ParseState }> {
  const state = newParseState();
  const text = await Deno.readTextFile(new URL(name, FIXTURES));
  const events = text.split("\n").flatMap((line) => parsePiLine(line, state));
  return { events, state };
}

const types = (events: WorkerEvent[]) => events.map((e) => e.type);
const closeTo = (a: number, b: number) => ok(Math.abs(a - b) < 1e-9, `${a} is not close to ${b}`);

Deno.test("parsePiLine turns a successful run into start, tools, text, usage and result", async () => {
  const { events, state } = await parseFixture("success.jsonl");
  deepStrictEqual(types(events), [
    "worker_start",
    "worker_tool_call",
    "worker_usage",
    "worker_tool_result",
    "worker_text",
    "worker_usage",
    "worker_result",
  ]);
  deepStrictEqual(events[0], { type: "worker_start", sessionId: "0b7e1c52-3f7a-4c1e-9d2a-5a1f00000001" });
  const call = events[1] as Extract<WorkerEvent, { type: "worker_tool_call" }>;
  equal(call.name, "write");
  equal((call.input as { content: string }).content, "good morning\n");
  deepStrictEqual(events[3], {
    type: "worker_tool_result",
    id: "call_demo_a",
    name: "write",
    ok: true,
    output: "Wrote 13 bytes to greeting.txt",
  });
  deepStrictEqual(events.at(-1), {
    type: "worker_result",
    ok: true,
    stopReason: "stop",
    text: "Added greeting.txt with a short greeting.",
  });
  deepStrictEqual(state.usage, { input: 1900, output: 72, cacheRead: 2300, cacheWrite: 200 });
  closeTo(state.costUsd, 0.00812);
  equal(state.badLines, 0);
  equal(state.lastStopReason, "stop");
  for (const event of events) WorkerEvent.parse(event);
});

Deno.test("finishPi reports success with summed usage and the last text", async () => {
  const { state } = await parseFixture("success.jsonl");
  const outcome = finishPi(CLEAN_EXIT, state);
  equal(outcome.ok, true);
  equal(outcome.text, "Added greeting.txt with a short greeting.");
  deepStrictEqual(outcome.usage, { input: 1900, output: 72, cacheRead: 2300, cacheWrite: 200 });
  closeTo(outcome.costUsd, 0.00812);
});

Deno.test("finishPi reads a 401 from the stream although pi exits 0", async () => {
  const { events, state } = await parseFixture("auth-401.jsonl");
  deepStrictEqual(events.at(-1), { type: "worker_result", ok: false, stopReason: "error", text: undefined });
  const outcome = finishPi(CLEAN_EXIT, state);
  equal(outcome.ok, false);
  equal(outcome.failure?.code, "auth");
  equal(outcome.failure?.class, "blocking");
  ok(outcome.failure?.message.startsWith("401 "));
});

Deno.test("finishPi tells quota from rate limit and reports retries", async () => {
  const quota = await parseFixture("quota-429.jsonl");
  deepStrictEqual(
    quota.events.filter((e) => e.type === "worker_retry").map((e) => (e as { attempt: number }).attempt),
    [1, 2],
  );
  deepStrictEqual(finishPi(CLEAN_EXIT, quota.state).failure?.code, "quota");
  equal(finishPi(CLEAN_EXIT, quota.state).failure?.class, "permanent");

  const rate = await parseFixture("rate-limit-429.jsonl");
  equal(finishPi(CLEAN_EXIT, rate.state).failure?.code, "rate_limit");
  equal(finishPi(CLEAN_EXIT, rate.state).failure?.class, "transient");
});

Deno.test("parsePiLine counts bad lines and skips partial updates", () => {
  const state = newParseState();
  deepStrictEqual(parsePiLine("Warning: something on stdout", state), []);
  deepStrictEqual(parsePiLine(`{"no":"type"}`, state), []);
  deepStrictEqual(parsePiLine("", state), []);
  deepStrictEqual(
    parsePiLine(`{"type":"message_update","message":{"role":"assistant","content":[]}}`, state),
    [],
  );
  equal(state.badLines, 2);
  equal(state.events, 1);
});

Deno.test("parsePiLine caps tool output and marks errors", () => {
  const state = newParseState();
  const long = "x".repeat(TOOL_OUTPUT_CAP + 50);
  const line = JSON.stringify({
    type: "tool_execution_end",
    toolCallId: "c1",
    toolName: "bash",
    result: { content: [{ type: "text", text: long }] },
    isError: true,
  });
  const [event] = parsePiLine(line, state) as Extract<WorkerEvent, { type: "worker_tool_result" }>[];
  equal(event.ok, false);
  equal(event.output?.length, TOOL_OUTPUT_CAP);
});

Deno.test("finishPi: cancel and timeout win over the stream", async () => {
  const { state } = await parseFixture("success.jsonl");
  deepStrictEqual(finishPi({ ...CLEAN_EXIT, cancelled: true }, state).failure?.code, "cancelled");
  const timedOut = finishPi({ ...CLEAN_EXIT, exitCode: null, signal: "SIGKILL", timedOut: true }, state);
  deepStrictEqual([timedOut.failure?.code, timedOut.failure?.class], ["timeout", "transient"]);
  deepStrictEqual(timedOut.usage, state.usage);
});

Deno.test("finishPi: no events is zero output on exit 0 and a crash otherwise", () => {
  const silent = finishPi(CLEAN_EXIT, newParseState());
  deepStrictEqual([silent.failure?.code, silent.failure?.class], ["zero_output", "permanent"]);
  const crashed = finishPi(
    { ...CLEAN_EXIT, exitCode: 1, stderrTail: "Error: cannot find module\n" },
    newParseState(),
  );
  deepStrictEqual([crashed.failure?.code, crashed.failure?.class], ["cli_crash", "transient"]);
  equal(crashed.failure?.message, "Worker exited with code 1: Error: cannot find module");
});

Deno.test("finishPi: a signal mid-stream without an error is a crash", async () => {
  const { state } = await parseFixture("success.jsonl");
  const outcome = finishPi({ ...CLEAN_EXIT, exitCode: null, signal: "SIGSEGV" }, state);
  equal(outcome.failure?.code, "cli_crash");
  equal(outcome.failure?.message, `Worker was killed by signal "SIGSEGV"`);
});

Deno.test("finishPi: an aborted stop without a message is still a failure", () => {
  const state = newParseState();
  parsePiLine(
    JSON.stringify({ type: "message_end", message: { role: "assistant", stopReason: "aborted" } }),
    state,
  );
  const outcome = finishPi(CLEAN_EXIT, state);
  equal(outcome.ok, false);
  equal(outcome.failure?.message, `Worker stopped with "aborted"`);
});
