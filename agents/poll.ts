/**
 * `spot agent poll NAME`: one line, the same on every call once the agent
 * has settled. A line that ends the agent is persisted in the registry
 * (first writer wins, so two polls agree), the agent stopped first when the
 * decision says so, the worker's final text distilled into the run's
 * `result.md`, and the settlement logged as an event of the run.
 */
import type { SpotContext } from "../store/context.ts";
import { writeTextAtomic } from "../store/files.ts";
import { decide, type Decision, type Thresholds } from "./decide.ts";
import { observe, type Observed } from "./observe.ts";
import { agentFile, checkName, requireRecord } from "./registry.ts";
import { stopAgent } from "./stop.ts";

export interface PollResult {
  name: string;
  runId: string | null;
  line: string;
  terminal: boolean;
  wall?: string;
}

export function thresholds(ctx: SpotContext): Thresholds {
  return ctx.config.agents;
}

/** Writes the line unless another poll already did; returns the line that won. */
async function persist(path: string, line: string): Promise<string> {
  try {
    await Deno.writeTextFile(path, line + "\n", { createNew: true, mode: 0o600 });
    return line;
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    return (await Deno.readTextFile(path)).trim();
  }
}

async function distill(o: Observed): Promise<void> {
  const text = o.facts.result?.text;
  if (!text || o.facts.output === "-") return;
  await writeTextAtomic(o.facts.output, text.endsWith("\n") ? text : text + "\n").catch(() => {});
}

/** Settles an agent with a line of the caller's (watch's sibling abort): stop, persist, log. */
export async function settle(ctx: SpotContext, o: Observed, decision: Decision): Promise<string> {
  const name = o.record?.name;
  if (!name) return decision.line;
  if (decision.stop && o.record) {
    await stopAgent(o.record, o.events, { graceMs: ctx.config.agents.stopGraceSeconds * 1000 });
  }
  const line = await persist(agentFile(ctx.paths, name, "status"), decision.line);
  if (line === decision.line) {
    if (line.startsWith("STATUS=OK")) await distill(o);
    if (o.record?.runId) {
      await ctx.store.event(o.record.runId, { type: "agent", name, state: "settled", line }).catch(() => {});
    }
  }
  return line;
}

export async function pollAgent(ctx: SpotContext, name: string): Promise<PollResult> {
  checkName(name);
  await requireRecord(ctx.paths, name);
  const o = await observe(ctx, name);
  const decision = decide(o.facts, thresholds(ctx));
  const line = decision.terminal && !o.facts.persisted ? await settle(ctx, o, decision) : decision.line;
  return {
    name,
    runId: o.record?.runId || null,
    line,
    terminal: decision.terminal,
    ...(decision.wall ? { wall: decision.wall } : {}),
  };
}
