/** `inspect`: one run's files, read straight from its directory (no run index, so it starts fast). */
import type { SpotContext } from "../store/context.ts";
import { loadTask } from "../store/task_file.ts";

/** The logs of what left the sandbox: the forwarder's, the egress proxies' (a research turn's web proxy too). */
const NETWORK_LOGS = ["forwarder.jsonl", "worker-egress.jsonl", "worker-web.jsonl", "setup-egress.jsonl"];

/** Each network log the run has, as its count of lines by decision (`allowed`, `refused`, `provider`, ...). */
function networkLogs(ctx: SpotContext, runId: string): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const name of NETWORK_LOGS) {
    // Synchronous, like inspect's other small reads: an asynchronous one starts Deno's blocking-thread pool.
    let text: string;
    try {
      text = Deno.readTextFileSync(ctx.store.file(runId, name));
    } catch {
      continue; // the run has no such log
    }
    const counts: Record<string, number> = {};
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      let decision = "unreadable";
      try {
        decision = String((JSON.parse(line) as { decision?: unknown }).decision ?? "other");
      } catch {
        // counted as unreadable
      }
      counts[decision] = (counts[decision] ?? 0) + 1;
    }
    out[name] = counts;
  }
  return out;
}

/**
 * metrics.json is what `spot report` saw when it ran: one written before the work landed says "none counted
 * yet" for good. Said beside it, with the command that refreshes it, rather than left to read as current.
 */
function staleMetrics(metrics: unknown, status: string, runId: string): { metricsStale?: string } {
  const was = (metrics as { status?: unknown } | null)?.status;
  if (typeof was !== "string" || was === status) return {};
  return {
    metricsStale: `metrics.json was written while the run was ${was}; it is ${status} now: ` +
      `spot report --id ${runId} refreshes it`,
  };
}

export async function inspectRun(ctx: SpotContext, runId: string) {
  const state = await ctx.store.load(runId);
  const task = await loadTask(ctx.store, runId);
  const [verification, selfReview, review, metrics] = await Promise.all(
    ["verification.json", "self-review.json", "review.json", "metrics.json"].map((f) =>
      ctx.store.readJson(runId, f)
    ),
  );
  return {
    /** "pi-worker" for a run the original tool wrote: spot shows it and never changes it. */
    origin: state.origin ?? "spot",
    state,
    /** The executor whose attempt ran the worker's turn and the checks (docs/fleet.md); null when it ran here. */
    executor: state.fleet?.role === "origin" ? state.fleet.executor ?? null : null,
    task: { runId: task.runId, goal: task.goal, risk: task.risk, allowedPaths: task.allowedPaths },
    failure: state.failure,
    dependencies: state.dependencies ?? null,
    verification,
    selfReview,
    review,
    metrics,
    ...staleMetrics(metrics, state.status, runId),
    workerUsage: { usage: state.workerUsage, costUsd: state.workerCostUsd, attempts: state.workerAttempts },
    /** `forwarder.jsonl`, `worker-egress.jsonl`, `worker-web.jsonl`, `setup-egress.jsonl`: lines by decision. */
    networkLogs: networkLogs(ctx, runId),
  };
}
