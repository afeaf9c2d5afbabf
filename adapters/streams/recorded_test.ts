/**
 * Every parser against the streams recorded from the real CLIs (copied from
 * the reference runs into tests/fixtures/streams/): the class each scenario
 * ends in, and for each success the same normalized usage whatever the CLI's
 * own accounting (the server sent 1200 + 1300 prompt tokens, 300 + 1000 of
 * them cached, 40 + 5 out, and 50 cache-written to Anthropic clients).
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { WorkerEvent } from "../../schemas/events.ts";
import { finishIdle } from "./finish.ts";
import { getAdapter } from "../mod.ts";
import { newParseState, type WorkerOutcome } from "../types.ts";

const DIR = new URL("../../tests/fixtures/streams/", import.meta.url);
/** The recordings killed a hung CLI with `timeout`, which exits 124; spot's watchdog does that job. */
const KILLED_BY_TIMEOUT = 124;
const IDLE_SECONDS = 60;

const SAME_USAGE = { input: 1200, output: 45, cacheRead: 1300, cacheWrite: 0 };

/** recording → what spot must make of it: "ok", or the failure code. */
const EXPECTED: [string, string][] = [
  ["pi-success", "ok"],
  ["pi-success-fake-anthropic", "ok"],
  ["pi-success-fake-responses", "ok"],
  ["pi-badmodel", "ok"],
  ["pi-nokey", "ok"],
  ["pi-401", "auth"],
  ["pi-404", "model_not_found"],
  ["pi-429", "quota"],
  ["pi-429rl", "rate_limit"],
  ["pi-hang-timeout15s", "timeout"],
  ["pi-hang", "no_progress"],
  ["pi-stall", "no_progress"],
  ["pi-stall-timeout15s", "no_progress"],
  ["opencode-success", "ok"],
  ["opencode-success-tuned", "ok"],
  ["opencode-401", "auth"],
  ["opencode-404", "model_not_found"],
  ["opencode-429", "quota"],
  ["opencode-429rl", "rate_limit"],
  // The stream only says "Unexpected server error"; the log on stderr names the missing model.
  ["opencode-badmodel", "model_not_found"],
  ["opencode-hang", "no_progress"],
  ["opencode-hang-timeout10s", "no_progress"],
  ["opencode-stall", "no_progress"],
  ["opencode-stall-chunk10s", "no_progress"],
  ["codex-success", "ok"],
  ["codex-success-gpt55", "ok"],
  ["codex-401", "auth"],
  ["codex-404", "model_not_found"],
  ["codex-429", "quota"],
  ["codex-429rl", "rate_limit"],
  ["codex-nokey", "auth"],
  ["codex-stall", "timeout"],
  ["codex-hang", "no_progress"],
  ["codex-hang-idle15s", "no_progress"],
  // No stream at all: the config error is on stderr.
  ["codex-wirechat", "config"],
  ["claude-success", "ok"],
  ["claude-401", "auth"],
  ["claude-401-maxretries1", "auth"],
  ["claude-404", "model_not_found"],
  // The recorded Anthropic 429 body itself speaks of a rate limit, and claude reports it so.
  ["claude-429", "rate_limit"],
  ["claude-429rl", "rate_limit"],
  ["claude-hang", "no_progress"],
  ["claude-hang-timeout10s", "timeout"],
  ["gemini-success", "ok"],
  ["gemini-401", "auth"],
  ["gemini-401-rerun", "auth"],
  ["gemini-404", "model_not_found"],
  // gemini retried these for minutes in the recording, silently on stdout.
  ["gemini-429", "no_progress"],
  ["gemini-429rl", "no_progress"],
  ["gemini-hang", "no_progress"],
  ["qwen-success", "ok"],
  ["qwen-401", "auth"],
  ["qwen-404", "model_not_found"],
  ["qwen-429", "no_progress"],
  ["qwen-429rl", "no_progress"],
  ["qwen-hang", "no_progress"],
  ["kilo-success", "ok"],
  ["kilo-401", "auth"],
  ["kilo-404", "model_not_found"],
  ["kilo-429", "quota"],
  // qodercli 1.1.52 from npm, which only talks to Qoder's own service: no login, and a token it cannot exchange.
  ["qoder-nologin", "auth"],
  ["qoder-patoffline", "config"],
];

async function text(name: string): Promise<string> {
  return await Deno.readTextFile(new URL(name, DIR)).catch(() => "");
}

interface Replayed {
  outcome: WorkerOutcome;
  events: WorkerEvent[];
  badLines: number;
}

async function replay(recording: string): Promise<Replayed> {
  const adapter = getAdapter(recording.split("-")[0]);
  ok(adapter, `no adapter for ${recording}`);
  const meta = JSON.parse(await text(`${recording}.meta.json`)) as { exit_code: number };
  const state = newParseState();
  const events = (await text(`${recording}.jsonl`)).split("\n").flatMap((line) =>
    adapter.parseLine(line, state)
  );
  const stderrTail = (await text(`${recording}.stderr.txt`)).slice(-4000);
  if (meta.exit_code === KILLED_BY_TIMEOUT) {
    const exit = { exitCode: null, signal: "SIGTERM", timedOut: false, cancelled: false, stderrTail };
    return {
      outcome: finishIdle(adapter.finish(exit, state), state, IDLE_SECONDS),
      events,
      badLines: state.badLines,
    };
  }
  const exit = { exitCode: meta.exit_code, signal: null, timedOut: false, cancelled: false, stderrTail };
  return { outcome: adapter.finish(exit, state), events, badLines: state.badLines };
}

Deno.test("every recorded stream ends in the class its scenario calls for", async () => {
  const wrong: string[] = [];
  for (const [recording, expected] of EXPECTED) {
    const { outcome } = await replay(recording);
    const got = outcome.ok ? "ok" : outcome.failure?.code ?? "?";
    if (got !== expected) {
      wrong.push(`${recording}: expected ${expected}, got ${got} (${outcome.failure?.message})`);
    }
  }
  deepStrictEqual(wrong, []);
});

Deno.test("every recorded success normalizes to the usage the server sent, whatever the CLI's accounting", async () => {
  for (
    const [recording] of EXPECTED.filter(([name, e]) =>
      e === "ok" && !name.includes("badmodel") && !name.includes("nokey")
    )
  ) {
    const { outcome, events, badLines } = await replay(recording);
    const usage = recording.startsWith("claude") || recording === "pi-success-fake-anthropic"
      ? { ...SAME_USAGE, cacheWrite: 50 }
      : SAME_USAGE;
    deepStrictEqual(outcome.usage, usage, recording);
    equal(outcome.text, "done", recording);
    equal(badLines, 0, recording);
    ok(events.some((e) => e.type === "worker_tool_call"), `${recording} shows the write as a tool call`);
    for (const event of events) WorkerEvent.parse(event);
  }
});

Deno.test("recorded costs come through where the CLI reports them", async () => {
  const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;
  ok(close((await replay("opencode-success")).outcome.costUsd, 0.00339 + 0.001275));
  ok(close((await replay("kilo-success")).outcome.costUsd, 0.00339 + 0.001275));
  ok(close((await replay("claude-success")).outcome.costUsd, 0.0080875));
  equal((await replay("codex-success")).outcome.costUsd, 0);
});
