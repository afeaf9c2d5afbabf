/**
 * `spot agent watch NAME… [--interval S]`: polls only the named agents,
 * prints `name: <line>` when a line changes (durations normalised, so a
 * ticking clock is no change), and returns when none is in flight. The
 * first provider wall among them stops its still-running siblings, stamped
 * `<tag> sibling-abort`, and rolls back the worktrees spot made for them.
 */
import type { SpotContext } from "../store/context.ts";
import { decide, inFlight, siblingAbort, type Wall } from "./decide.ts";
import { observe } from "./observe.ts";
import { pollAgent, settle, thresholds } from "./poll.ts";
import { checkName, requireRecord } from "./registry.ts";
import { rollbackAgentRun } from "./rollback.ts";

export interface WatchResult {
  lines: Record<string, string>;
  aborted: string[];
  rolledBack: string[];
}

export const normalise = (line: string): string => line.replace(/\b\d+s\b/g, "Ns");

async function abortSiblings(
  ctx: SpotContext,
  names: string[],
  tag: Wall,
  result: WatchResult,
  print: (text: string) => void,
) {
  for (const name of names) {
    const o = await observe(ctx, name);
    if (decide(o.facts, thresholds(ctx)).terminal) continue;
    const line = await settle(ctx, o, siblingAbort(o.facts, tag));
    result.lines[name] = line;
    result.aborted.push(name);
    print(`${name}: ${line}`);
    const rolled = o.record?.runId ? await rollbackAgentRun(ctx, o.record.runId) : null;
    if (rolled) result.rolledBack.push(rolled);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

export async function watchAgents(
  ctx: SpotContext,
  names: string[],
  options: { intervalSeconds?: number; print: (text: string) => void },
): Promise<WatchResult> {
  for (const name of names) checkName(name);
  for (const name of names) await requireRecord(ctx.paths, name);
  const intervalMs = (options.intervalSeconds ?? ctx.config.agents.watchIntervalSeconds) * 1000;
  const shown = new Map<string, string>();
  const result: WatchResult = { lines: {}, aborted: [], rolledBack: [] };
  let walled = false;
  while (!ctx.signal?.aborted) {
    let running = 0;
    for (const name of names) {
      const r = await pollAgent(ctx, name);
      result.lines[name] = r.line;
      if (shown.get(name) !== normalise(r.line)) {
        shown.set(name, normalise(r.line));
        options.print(`${name}: ${r.line}`);
      }
      if (inFlight(r.line)) running++;
      if (r.wall && !walled && !r.line.includes("sibling-abort")) {
        walled = true;
        const others = names.filter((n) => n !== name);
        await abortSiblings(ctx, others, r.wall as Wall, result, options.print);
        for (const n of others) shown.set(n, normalise(result.lines[n] ?? ""));
        // Rolled back too: the walled agent's own partial work.
        const own = await rollbackAgentRun(ctx, r.runId ?? "").catch(() => null);
        if (own) result.rolledBack.push(own);
      }
    }
    if (running === 0 || Object.values(result.lines).every((l) => !inFlight(l))) break;
    await sleep(intervalMs, ctx.signal);
  }
  options.print("--- no agents in flight ---");
  return result;
}
