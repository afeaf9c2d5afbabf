/**
 * `spot agent ls`: every registered agent with its poll line. A name whose
 * run is gone and whose driver is dead points at nothing: it is pruned.
 */
import type { SpotContext } from "../store/context.ts";
import { decide } from "./decide.ts";
import { driverAlive, observe } from "./observe.ts";
import { pollAgent, type PollResult } from "./poll.ts";
import { agentFile, listNames, readRecord, unregister } from "./registry.ts";

export interface LsResult {
  agents: PollResult[];
  pruned: string[];
}

async function dangling(ctx: SpotContext, name: string): Promise<boolean> {
  const record = await readRecord(ctx.paths, name);
  if (!record) return false; // a start in progress, or a broken handle poll reports
  if (driverAlive(record)) return false;
  // A driver that failed before its run existed left its marker: poll still has something to say.
  for (const file of ["rc", "status"]) {
    if (await exists(agentFile(ctx.paths, name, file))) return false;
  }
  return !(await exists(ctx.store.dir(record.runId)));
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

export async function listAgents(ctx: SpotContext): Promise<LsResult> {
  const agents: PollResult[] = [];
  const pruned: string[] = [];
  for (const name of await listNames(ctx.paths)) {
    if (await dangling(ctx, name)) {
      await unregister(ctx.paths, name);
      pruned.push(name);
      continue;
    }
    agents.push(await pollAgent(ctx, name));
  }
  return { agents, pruned };
}

export interface AgentLine {
  name: string;
  runId: string | null;
  line: string;
}

/**
 * Every agent's line as poll would print it, read-only: nothing is stopped, persisted or pruned, so a
 * viewer (the dashboard, whose GETs change nothing) can show agents by name.
 */
export async function agentLines(ctx: Pick<SpotContext, "paths" | "store" | "config">): Promise<AgentLine[]> {
  const out: AgentLine[] = [];
  for (const name of await listNames(ctx.paths)) {
    const o = await observe(ctx, name).catch(() => null);
    if (!o) continue;
    out.push({ name, runId: o.record?.runId || null, line: decide(o.facts, ctx.config.agents).line });
  }
  return out;
}
