/**
 * kimi, trae, codebuddy and zcode do not install here, and qodercli installs
 * but runs only against Qoder's own service, so these fixtures
 * (tests/fixtures/<cli>/) are written in the shapes their headless modes
 * document, not recorded (qoder's real login-wall streams are in
 * tests/fixtures/streams/). These tests pin what the parsers and finish
 * rules make of those shapes, and what the plans launch.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { WorkerEvent } from "../schemas/events.ts";
import { finishIdle } from "./streams/finish.ts";
import { getAdapter } from "./mod.ts";
import { type LaunchSpec, newParseState, type WorkerOutcome } from "./types.ts";

const DIR = new URL("../tests/fixtures/", import.meta.url);

interface Replay {
  outcome: WorkerOutcome;
  events: WorkerEvent[];
}

async function replay(cli: string, fixture: string, exitCode = 0, idle = false): Promise<Replay> {
  const adapter = getAdapter(cli);
  ok(adapter, cli);
  const state = newParseState();
  const text = await Deno.readTextFile(new URL(`${cli}/${fixture}`, DIR));
  const events = text.split("\n").flatMap((line) => adapter.parseLine(line, state));
  for (const event of events) WorkerEvent.parse(event);
  const exit = {
    exitCode: idle ? null : exitCode,
    signal: idle ? "SIGTERM" : null,
    timedOut: false,
    cancelled: false,
    stderrTail: "",
  };
  const outcome = adapter.finish(exit, state);
  return { outcome: idle ? finishIdle(outcome, state, 30) : outcome, events };
}

const code = (r: Replay) => r.outcome.ok ? "ok" : r.outcome.failure?.code;

Deno.test("kimi: print-mode messages become text and tool events, and errors keep their class", async () => {
  const success = await replay("kimi", "success.jsonl");
  equal(code(success), "ok");
  equal(success.outcome.text, "Created hello.txt.");
  deepStrictEqual(success.events.map((e) => e.type), [
    "worker_text",
    "worker_tool_call",
    "worker_tool_result",
    "worker_text",
    "worker_start",
  ]);
  deepStrictEqual((success.events[1] as { input: unknown }).input, { path: "hello.txt", content: "hi\n" });
  equal(code(await replay("kimi", "rate-limit-429.jsonl", 75)), "rate_limit");
  equal(code(await replay("kimi", "auth-401.jsonl", 1)), "auth");
  const window = await replay("kimi", "quota-window.jsonl", 1);
  equal(code(window), "quota_window");
  equal(window.outcome.failure?.resetAt, "2026-12-01T08:00:00.000Z");
  equal(code(await replay("kimi", "zero-output.jsonl", 0)), "zero_output");
});

Deno.test("a worker killed while waiting on a question is ask_hang, and plain silence is no_progress", async () => {
  const asked = await replay("kimi", "question.jsonl", 0, true);
  equal(code(asked), "ask_hang");
  equal(asked.outcome.failure?.class, "blocking");
  equal(code(await replay("kimi", "success.jsonl", 0, true)), "no_progress");
});

Deno.test("qoder: a Claude-shaped success, a login wall as auth, and a TUI as tui_fallback", async () => {
  const success = await replay("qoder", "success.jsonl");
  equal(code(success), "ok");
  deepStrictEqual(success.outcome.usage, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
  // Zero tokens, but the result's total_credits is the run's cost: it travels as the usage record's credits.
  deepStrictEqual(success.events.filter((e) => e.type === "worker_usage"), [
    { type: "worker_usage", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, credits: 0.4 },
  ]);
  equal(code(await replay("qoder", "not-logged-in.jsonl", 0)), "auth");
  const tui = await replay("qoder", "tui.jsonl", 0, false);
  equal(code(tui), "tui_fallback");
  equal(tui.outcome.failure?.class, "blocking");
});

Deno.test("trae: the final message array is read on one line or printed over many", async () => {
  for (const fixture of ["success.jsonl", "success-pretty.jsonl"]) {
    const r = await replay("trae", fixture);
    equal(code(r), "ok", fixture);
    equal(r.outcome.text, "Created hello.txt.", fixture);
  }
  equal(code(await replay("trae", "error.jsonl", 1)), "auth");
});

Deno.test("codebuddy: a real turn succeeds, an empty 'successful' turn is a login wall", async () => {
  const success = await replay("codebuddy", "success.jsonl");
  equal(code(success), "ok");
  deepStrictEqual(success.outcome.usage, { input: 820, output: 31, cacheRead: 400, cacheWrite: 0 });
  const wall = await replay("codebuddy", "not-logged-in.jsonl", 0);
  equal(code(wall), "auth");
  equal(wall.outcome.failure?.class, "blocking");
});

Deno.test("zcode: the JSON result carries real usage; errors and usage windows are classified", async () => {
  const success = await replay("zcode", "success.jsonl");
  equal(code(success), "ok");
  deepStrictEqual(success.outcome.usage, { input: 1500, output: 60, cacheRead: 400, cacheWrite: 0 });
  equal(code(await replay("zcode", "auth.jsonl", 1)), "auth");
  equal(code(await replay("zcode", "quota-window.jsonl", 1)), "quota_window");
});

function spec(adapter: string): LaunchSpec {
  return {
    runId: "r1",
    phase: "run",
    worktree: "/w/tree",
    runDir: "/w/run",
    homeDir: "/w/run/homes/run-r0-a1",
    binary: `/opt/bin/${adapter}`,
    profile: { name: "p", adapter, provider: "kimi-for-coding", model: "kimi-k2", apiKeyEnv: "MY_KEY" },
    promptFile: "/w/run/prompt.md",
    prompt: "Fix it",
    baseEnv: { PATH: "/usr/bin" },
    apiKey: "sk-secret",
  };
}

Deno.test("the documented CLIs are launched headless, with the key only in the environment", () => {
  const argv = (cli: string) => getAdapter(cli)!.plan(spec(cli)).argv.slice(1).join(" ");
  equal(argv("kimi"), "--print --output-format stream-json --work-dir /w/tree --model kimi-k2");
  equal(
    argv("qoder"),
    "-p --output-format stream-json --yolo --allowed-tools Read,Write,Grep,Glob,Edit,MultiEdit --model kimi-k2 -",
  );
  equal(
    argv("trae"),
    "--json --yolo --allowed-tool Read,Grep,Glob,Edit,MultiEdit,Write --session-id r1-run -",
  );
  ok(argv("codebuddy").startsWith("-p --output-format stream-json"));
  equal(argv("zcode"), "-p Fix it --json");
  for (const cli of ["kimi", "qoder", "trae", "codebuddy", "zcode"]) {
    const plan = getAdapter(cli)!.plan(spec(cli));
    equal(plan.env.MY_KEY, "sk-secret", cli);
    ok(!plan.argv.join(" ").includes("sk-secret"), cli);
    ok(plan.files.every((f) => !f.content.includes("sk-secret")), cli);
  }
  const kimiConfig = getAdapter("kimi")!.plan(spec("kimi")).files[0].content;
  ok(kimiConfig.includes('type = "kimi"') && kimiConfig.includes('api_key = ""'), kimiConfig);
  equal(getAdapter("kimi")!.plan(spec("kimi")).env.KIMI_API_KEY, "sk-secret");
});
