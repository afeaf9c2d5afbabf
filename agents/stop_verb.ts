/** `spot agent stop NAME`: end the agent's processes, log it, and unregister the name; repeating it is harmless. */
import type { SpotContext } from "../store/context.ts";
import { observe } from "./observe.ts";
import { checkName, readRecord, unregister } from "./registry.ts";
import { stopAgent } from "./stop.ts";

export interface StopVerbResult {
  name: string;
  runId: string | null;
  /** The driver's process group that was signalled, or null when nothing ran. */
  pgid: number | null;
  /** Groups that outlived SIGTERM and got SIGKILL. */
  killed: number[];
  unregistered: boolean;
}

export async function stopNamedAgent(ctx: SpotContext, name: string): Promise<StopVerbResult> {
  checkName(name);
  const record = await readRecord(ctx.paths, name);
  let stopped = { pgid: null as number | null, killed: [] as number[] };
  if (record) {
    const o = await observe(ctx, name);
    stopped = await stopAgent(record, o.events, { graceMs: ctx.config.agents.stopGraceSeconds * 1000 });
    if (stopped.pgid !== null) {
      await ctx.store.event(record.runId, { type: "agent", name, state: "stopped" }).catch(() => {});
    }
  }
  const unregistered = await unregister(ctx.paths, name);
  return { name, runId: record?.runId ?? null, ...stopped, unregistered };
}
