/**
 * A job's cost budget (`limits.costUsd`), as pure arithmetic over its tasks' records. A task launches with a
 * share of what no one has spent or reserved, divided among the job's free concurrency slots, so the shares
 * of the workers running at once never add up to more than the budget; each worker is stopped when it spends
 * its share (worker/budget.ts), and its unspent share returns to the job when it ends.
 */
import type { TaskRecord } from "../store.ts";

/** Below this a share buys nothing: the task waits for a running one to hand back what it did not spend. */
export const MIN_SHARE_USD = 0.000001;

export interface Ledger {
  /** What ended tasks spent. */
  spentUsd: number;
  /** What running tasks hold. */
  reservedUsd: number;
}

export function ledger(tasks: Readonly<Record<string, TaskRecord>>): Ledger {
  let spentUsd = 0;
  let reservedUsd = 0;
  for (const t of Object.values(tasks)) {
    if (t.state === "running") reservedUsd += t.reservedUsd ?? 0;
    else spentUsd += t.costUsd ?? 0;
  }
  return { spentUsd, reservedUsd };
}

/**
 * The share each of `start` (in order) gets: what is left unreserved, divided by the slots still free. Tasks
 * that would get less than MIN_SHARE_USD are left out (they start when a running task ends).
 */
export function shares(
  limitUsd: number,
  tasks: Readonly<Record<string, TaskRecord>>,
  start: readonly string[],
  freeSlots: number,
): Map<string, number> {
  const { spentUsd, reservedUsd } = ledger(tasks);
  let unreserved = limitUsd - spentUsd - reservedUsd;
  let slots = Math.max(freeSlots, start.length);
  const out = new Map<string, number>();
  for (const id of start) {
    const share = unreserved / slots;
    if (share < MIN_SHARE_USD) break;
    out.set(id, share);
    unreserved -= share;
    slots--;
  }
  return out;
}

/** Why the job must stop for its budget, or null. */
export function budgetReached(limitUsd: number | undefined, tasks: Readonly<Record<string, TaskRecord>>) {
  if (limitUsd === undefined) return null;
  const { spentUsd } = ledger(tasks);
  if (spentUsd < limitUsd) return null;
  return `BUDGET_EXCEEDED: the job spent $${spentUsd.toFixed(4)} of its $${limitUsd.toFixed(4)} budget`;
}
