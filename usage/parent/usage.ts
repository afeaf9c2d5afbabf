/**
 * A parent session's cumulative usage at one moment (a snapshot), and the
 * difference between two of them. Snapshots are files a parent writes with
 * `spot parent-meter` and hands to `prepare`, so they are validated on read.
 */
import { z } from "zod";

const Count = z.number().int().nonnegative();

/** Normalized like the worker's usage: `input` is non-cached; reasoning is part of `output`. */
export const ParentUsage = z.object({
  input: Count,
  cacheRead: Count,
  cacheWrite: Count,
  output: Count,
  reasoning: Count,
}).strict();
export type ParentUsage = z.infer<typeof ParentUsage>;

export const ZERO_PARENT_USAGE: ParentUsage = Object.freeze({
  input: 0,
  cacheRead: 0,
  cacheWrite: 0,
  output: 0,
  reasoning: 0,
});

/** The agents spot can meter; every other caller gets an unavailable snapshot. */
export const METERED_AGENTS = ["codex", "claude-code"] as const;
export type MeteredAgent = typeof METERED_AGENTS[number];

const Common = {
  schemaVersion: z.literal(1),
  kind: z.literal("spot-parent-usage"),
  agent: z.string().min(1),
  takenAt: z.string().min(1),
};

export const AvailableSnapshot = z.object({
  ...Common,
  available: z.literal(true),
  agent: z.enum(METERED_AGENTS),
  threadId: z.string().min(1),
  threadIdSource: z.string().min(1),
  sessionFile: z.string().min(1),
  /** Every file read: the session, plus subagent transcripts where the agent keeps them apart. */
  files: z.array(z.string()),
  bytesRead: Count,
  linesRead: Count,
  /** Lines that were not JSON (a torn last line of a file still being written is not read at all). */
  skippedLines: Count,
  compactions: Count,
  usage: ParentUsage,
  totalTokens: Count,
}).strict();
export type AvailableSnapshot = z.infer<typeof AvailableSnapshot>;

export const UnavailableSnapshot = z.object({
  ...Common,
  available: z.literal(false),
  reason: z.string().min(1),
}).strict();
export type UnavailableSnapshot = z.infer<typeof UnavailableSnapshot>;

export const ParentSnapshot = z.discriminatedUnion("available", [AvailableSnapshot, UnavailableSnapshot]);
export type ParentSnapshot = z.infer<typeof ParentSnapshot>;

/** Every token the parent's model processed or produced: what delegation tries to shrink. */
export function parentTotal(u: Omit<ParentUsage, "reasoning">): number {
  return u.input + u.cacheRead + u.cacheWrite + u.output;
}

export function addParentUsage(a: ParentUsage, b: ParentUsage): ParentUsage {
  return {
    input: a.input + b.input,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    output: a.output + b.output,
    reasoning: a.reasoning + b.reasoning,
  };
}

export interface UsageDelta {
  usage: ParentUsage;
  totalTokens: number;
  /** Fields whose end value was below the start value; each was clamped to zero. */
  clamped: (keyof ParentUsage)[];
}

/** End minus start, field by field, never below zero. */
export function usageDelta(start: ParentUsage, end: ParentUsage): UsageDelta {
  const usage = { ...ZERO_PARENT_USAGE };
  const clamped: (keyof ParentUsage)[] = [];
  for (const key of Object.keys(usage) as (keyof ParentUsage)[]) {
    const d = end[key] - start[key];
    if (d < 0) clamped.push(key);
    usage[key] = Math.max(0, d);
  }
  return { usage, totalTokens: parentTotal(usage), clamped };
}
