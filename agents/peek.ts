/**
 * `spot agent peek NAME`: the seed's four lines about a running (or
 * settled) agent, read from its run's events: the run and how far it got,
 * its tools, its tokens, and the tail of what it said.
 */
import type { SpotEvent } from "../schemas/events.ts";
import type { SpotContext } from "../store/context.ts";
import { observe } from "./observe.ts";
import { checkName, requireRecord } from "./registry.ts";

/** The seed shows this much of the last text. */
const TEXT_TAIL = 200;

export interface PeekResult {
  name: string;
  runId: string | null;
  lines: string[];
}

export function peekLines(
  f: { runId: string; elapsed: number; bytes: number; terminal: boolean },
  events: SpotEvent[],
): string[] {
  const worker = events.filter((e) => e.type.startsWith("worker_"));
  const calls = events.filter((e) => e.type === "worker_tool_call");
  const done = events.filter((e) => e.type === "worker_tool_result").length;
  const usage = events.filter((e) => e.type === "worker_usage");
  const last = usage.at(-1)?.usage;
  const ctx = last ? last.input + last.cacheRead + last.cacheWrite + last.output : 0;
  const out = usage.reduce((sum, e) => sum + e.usage.output, 0);
  const text = events.findLast((e) => e.type === "worker_text")?.text ?? "";
  return [
    `WATCH RUN=${f.runId} ELAPSED=${f.elapsed}s EVENTS=${worker.length} BYTES=${f.bytes} TERMINAL=${
      f.terminal ? "yes" : "no"
    }`,
    `TOOLS done=${done}/${calls.length} last=${calls.at(-1)?.name ?? "-"}`,
    `TOKENS ctx=${ctx} out=${out}`,
    `TEXT ${text.replace(/\s+/g, " ").trim().slice(-TEXT_TAIL)}`,
  ];
}

export async function peekAgent(ctx: SpotContext, name: string): Promise<PeekResult> {
  checkName(name);
  await requireRecord(ctx.paths, name);
  const o = await observe(ctx, name);
  const started = o.facts.handle?.startedAt ?? o.facts.now;
  const lines = peekLines({
    runId: o.record?.runId || "-",
    elapsed: Math.max(0, Math.floor((o.facts.now - started) / 1000)),
    bytes: o.facts.streamBytes,
    terminal: o.facts.result !== null || o.facts.persisted !== null,
  }, o.events);
  return { name, runId: o.record?.runId || null, lines };
}
