/**
 * A turn's budget: what a worker may spend before spot stops it (a job hands each task the share of its cost
 * budget reserved at launch, and its limits on turns and tool calls). Counted from the turn's own events as
 * they stream, so a worker is stopped at the first event that crosses a limit: it overruns by at most the
 * model call or tool call that event reports.
 */
import type { WorkerEvent } from "../schemas/events.ts";

export interface TurnBudget {
  /** Dollars this turn may spend, as the worker's own usage reports price them. */
  costUsd?: number;
  /** Model calls (each usage report is one). */
  turns?: number;
  toolCalls?: number;
}

export interface BudgetTotals {
  costUsd: number;
  turns: number;
  toolCalls: number;
}

export const NO_SPEND: BudgetTotals = { costUsd: 0, turns: 0, toolCalls: 0 };

/** The totals after one more event. */
export function spend(totals: BudgetTotals, event: WorkerEvent): BudgetTotals {
  if (event.type === "worker_usage") {
    return { ...totals, costUsd: totals.costUsd + (event.costUsd ?? 0), turns: totals.turns + 1 };
  }
  if (event.type === "worker_tool_call") return { ...totals, toolCalls: totals.toolCalls + 1 };
  return totals;
}

/** Why the turn must stop, or null while every limit holds. A limit is reached when spent, not exceeded. */
export function budgetSpent(budget: TurnBudget | undefined, totals: BudgetTotals): string | null {
  if (!budget) return null;
  if (budget.costUsd !== undefined && totals.costUsd >= budget.costUsd) {
    return `it spent $${totals.costUsd.toFixed(4)} of the $${budget.costUsd.toFixed(4)} it was given`;
  }
  if (budget.turns !== undefined && totals.turns > budget.turns) {
    return `it made ${totals.turns} model calls, over its limit of ${budget.turns}`;
  }
  if (budget.toolCalls !== undefined && totals.toolCalls > budget.toolCalls) {
    return `it called a tool ${totals.toolCalls} times, over its limit of ${budget.toolCalls}`;
  }
  return null;
}
