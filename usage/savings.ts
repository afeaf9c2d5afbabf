/**
 * The headline estimate: parent tokens the delegation avoided. Without a
 * parent meter the estimate rests on the worker's own usage for the task.
 */
import type { Usage } from "../schemas/events.ts";

export interface ParentSavings {
  label: "estimate-not-ab-test";
  estimatedTokensAvoided: number;
  basis: string;
  parentTokensSpent: number | null;
  savingRatio: number | null;
}

export function totalTokens(u: Usage): number {
  return u.input + u.output + u.cacheRead + u.cacheWrite;
}

export function estimateSavings(worker: Usage, parentSpent: number | null): ParentSavings {
  const avoided = totalTokens(worker);
  return {
    label: "estimate-not-ab-test",
    estimatedTokensAvoided: avoided,
    basis: "the parent would have spent about as many tokens as the worker did on the same task",
    parentTokensSpent: parentSpent,
    savingRatio: parentSpent === null || avoided + parentSpent === 0
      ? null
      : avoided / (avoided + parentSpent),
  };
}
