/** The one rule every new turn of a name obeys: nothing may start while the name's agent is in flight. */
import { lazy } from "../base/lazy.ts";
import { SpotError } from "../errors.ts";
import type { SpotContext } from "../store/context.ts";
import { type AgentRecord, readRecord } from "./registry.ts";

/** Throws AGENT_RUNNING while the agent runs (or may still: a driver settling); returns its record, if any. */
export async function refuseLive(ctx: SpotContext, name: string, doing: string): Promise<AgentRecord | null> {
  const record = await readRecord(ctx.paths, name);
  if (!record) return null;
  // Watching a live agent needs the whole observer (its /proc reads, the run's events); a new name does not.
  const [{ decide }, { observe }, { thresholds }] = await Promise.all([
    lazy<typeof import("./decide.ts")>("./decide.ts", import.meta.url),
    lazy<typeof import("./observe.ts")>("./observe.ts", import.meta.url),
    lazy<typeof import("./poll.ts")>("./poll.ts", import.meta.url),
  ]);
  const o = await observe(ctx, name);
  const d = decide(o.facts, thresholds(ctx));
  if (o.facts.alive || (!d.terminal && !d.line.startsWith("STATUS=FAIL handle"))) {
    throw new SpotError("AGENT_RUNNING", `Cannot ${doing} agent "${name}": it is still running (${d.line})`, {
      details: { name, runId: record.runId, line: d.line, nextCommand: `spot agent stop ${name}` },
    });
  }
  return record;
}

/** Files of an earlier turn of a name that must not be read as the next one's. */
export const PER_TURN_FILES = ["rc", "status", "error.json"];
