/**
 * What the parent spent on the delegation: the end snapshot minus the start
 * snapshot, or the reason there is no number. A session whose totals went
 * down between the two was replaced or truncated; it gets no number.
 */
import type { AvailableSnapshot, ParentSnapshot, ParentUsage } from "./usage.ts";
import { usageDelta } from "./usage.ts";
import type { ParentMeasurement } from "../savings.ts";

export interface ParentSection {
  agent: string | null;
  available: boolean;
  reason: string | null;
  threadId: string | null;
  sessionFile: string | null;
  start: { takenAt: string; totalTokens: number } | null;
  end: { takenAt: string; totalTokens: number } | null;
  usage: ParentUsage | null;
  totalTokens: number | null;
  compactionsDuringRun: number | null;
}

export const NO_START_REASON =
  "no start snapshot: run `spot parent-meter --output FILE` before planning and " +
  "pass the file to `prepare --usage-start`";

/** Each snapshot, or the error reading or taking it raised. */
export function measureParent(
  startOrError: ParentSnapshot | Error | null,
  end: AvailableSnapshot | Error | null,
): { section: ParentSection; measurement: ParentMeasurement } {
  const start = startOrError instanceof Error ? null : startOrError;
  const base: ParentSection = {
    agent: start?.agent ?? null,
    available: false,
    reason: null,
    threadId: start?.available ? start.threadId : null,
    sessionFile: start?.available ? start.sessionFile : null,
    start: start?.available ? { takenAt: start.takenAt, totalTokens: start.totalTokens } : null,
    end: end && !(end instanceof Error) ? { takenAt: end.takenAt, totalTokens: end.totalTokens } : null,
    usage: null,
    totalTokens: null,
    compactionsDuringRun: null,
  };
  const none = (reason: string) => ({
    section: { ...base, reason },
    measurement: { available: false as const, reason },
  });
  if (startOrError instanceof Error) return none(`the start snapshot is unusable: ${startOrError.message}`);
  if (!start) return none(NO_START_REASON);
  if (!start.available) return none(start.reason);
  if (!end) return none("no end snapshot was taken");
  if (end instanceof Error) return none(`the end snapshot failed: ${end.message}`);
  if (end.agent !== start.agent || end.threadId !== start.threadId) {
    return none(`the snapshots are of different sessions (${start.threadId} and ${end.threadId})`);
  }
  const delta = usageDelta(start.usage, end.usage);
  if (delta.clamped.length > 0) {
    return none(
      `the session's ${delta.clamped.join(", ")} went down between the snapshots: ` +
        "the session file was replaced or truncated",
    );
  }
  return {
    section: {
      ...base,
      available: true,
      usage: delta.usage,
      totalTokens: delta.totalTokens,
      compactionsDuringRun: Math.max(0, end.compactions - start.compactions),
    },
    measurement: { available: true, agent: start.agent, usage: delta.usage, totalTokens: delta.totalTokens },
  };
}
