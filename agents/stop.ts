/**
 * Stopping an agent: SIGTERM to the driver's process group (the driver then
 * cancels its step, which ends the worker's own group), SIGKILL after the
 * grace to that group and to every step group still open in the run's
 * events. Safe to repeat: a group already gone is nothing to do.
 */
import { killGroup } from "../sandbox/spawn.ts";
import type { SpotEvent } from "../schemas/events.ts";
import { bootTimeMs, type ProcInfo, readProcesses, startedAtMs } from "../worker/process_tree.ts";
import type { AgentRecord } from "./registry.ts";
import { driverAlive } from "./observe.ts";

/** How often the group is looked at while it winds down. */
const CHECK_MS = 50;

/** Process groups that still have a member. */
export function liveGroups(groups: number[]): number[] {
  const wanted = new Set(groups);
  const live = new Set<number>();
  for (const p of readProcesses()) if (wanted.has(p.pgrp) && p.state !== "Z") live.add(p.pgrp);
  return [...live];
}

/** `btime` is whole seconds and a step is logged just after it starts: this much later is still the step. */
const START_SLACK_MS = 2000;

/**
 * Step processes (each the leader of its own group) that started and have not ended, and are still the
 * process that was logged: a pid a crashed step left behind may since belong to a process started later,
 * which is never signalled.
 */
export function openSteps(
  events: SpotEvent[],
  table: ProcInfo[] = readProcesses(),
  bootMs: number | null = bootTimeMs(),
): number[] {
  const open = new Map<string, { pid: number; at: number }>();
  for (const e of events) {
    if (e.type === "step_start" && e.pid) open.set(e.stepId, { pid: e.pid, at: Date.parse(e.at) });
    if (e.type === "step_end") open.delete(e.stepId);
  }
  const byPid = new Map(table.map((p) => [p.pid, p]));
  return [...open.values()].filter(({ pid, at }) => {
    const p = byPid.get(pid);
    if (!p || p.state === "Z") return false;
    if (bootMs === null || !Number.isFinite(at)) return true;
    return startedAtMs(p, bootMs) <= at + START_SLACK_MS;
  }).map((s) => s.pid);
}

export interface StopResult {
  /** The driver's process group, or null when there was none to stop. */
  pgid: number | null;
  /** The groups that had to be killed after the grace. */
  killed: number[];
}

export async function stopAgent(
  record: AgentRecord,
  events: SpotEvent[],
  options: { graceMs: number },
): Promise<StopResult> {
  const leader = record.pid !== null && driverAlive(record) ? record.pid : null;
  const groups = [...(leader !== null ? [leader] : []), ...openSteps(events)];
  if (groups.length === 0) return { pgid: null, killed: [] };
  for (const g of groups) killGroup(g, "SIGTERM");
  const deadline = Date.now() + options.graceMs;
  while (Date.now() < deadline && liveGroups(groups).length > 0) {
    await new Promise((r) => setTimeout(r, CHECK_MS));
  }
  const killed = liveGroups(groups);
  for (const g of killed) killGroup(g, "SIGKILL");
  return { pgid: leader, killed };
}
