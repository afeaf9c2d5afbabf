/**
 * The origin follows a run's task on the fleet until it ends (fleet/send.ts sent it): each claim and each lost
 * attempt goes to the run's events; a task nobody claims within `queue.claimTimeoutSeconds` of being queued is
 * cancelled (FLEET_UNCLAIMED).
 */
import { SpotError } from "../errors.ts";
import { ENDED, type TaskStatus } from "../queue/item.ts";
import type { Queue } from "../queue/types.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";

/** How often the origin looks at a task whose status did not change (a claim's timeout counts on). */
const IDLE_MS = 1_000;

/** Follows the run's task to its end; returns its last status, or null when `signal` stopped the wait. */
export async function followTask(
  ctx: SpotContext,
  queue: Queue,
  state: RunState,
  options: { signal?: AbortSignal } = {},
): Promise<TaskStatus | null> {
  const { taskId } = state.fleet!;
  const runId = state.runId;
  let attempt = state.fleet?.attempt ?? 0;
  let history = -1;
  const claimTimeoutMs = ctx.config.queue.claimTimeoutSeconds * 1000;
  let serving: Serving = { count: -1, at: 0 };
  // Each change of the task's status wakes the origin at once (the queue's watch); no change, every IDLE_MS.
  for await (const status of queue.watch(taskId, { signal: options.signal, idleMs: IDLE_MS })) {
    if (history < 0) history = status.history.length;
    for (const h of status.history.slice(history)) {
      const lost = h.outcome === "lease expired" ? "lease-expired" : "released";
      await ctx.store.event(runId, {
        type: "fleet",
        state: lost,
        taskId,
        executor: h.executor,
        attempt: h.attempt,
        message: h.outcome,
      });
    }
    history = status.history.length;
    if (
      status.attempt > attempt && status.executor && (status.state === "running" || ENDED.has(status.state))
    ) {
      attempt = status.attempt;
      await ctx.store.event(runId, {
        type: "fleet",
        state: "claimed",
        taskId,
        executor: status.executor,
        attempt,
      });
      const now = await ctx.store.load(runId);
      await ctx.store.save({ ...now, fleet: { ...now.fleet!, executor: status.executor, attempt } });
      ctx.progress?.(`run ${runId}: on executor ${status.executor} (attempt ${attempt})`);
    }
    if (ENDED.has(status.state)) return status;
    // Queued since it was sent, or since its last attempt was given back or lost.
    const since = Math.max(Date.parse(status.enqueuedAt), ...status.history.map((h) => Date.parse(h.at)));
    if (status.state === "queued" && Date.now() - since > claimTimeoutMs) {
      const why = `no executor claimed it within ${ctx.config.queue.claimTimeoutSeconds} s`;
      await queue.cancel(taskId, why);
      throw new SpotError("FLEET_UNCLAIMED", `Task "${taskId}" of run "${runId}" was cancelled: ${why}`, {
        details: {
          runId,
          taskId,
          profile: state.profile,
          fix: "start an executor with this profile: spot executor",
        },
      });
    }
    if (status.state === "queued") {
      serving = await servingNow(queue, state.profile, serving);
      const none = serving.count === 0
        ? ` (no executor alive serves ${state.profile}: start one with spot executor join)`
        : "";
      ctx.progress?.(`run ${runId}: queued on ${queue.where}, waiting for an executor${none}`);
    }
  }
  if (options.signal?.aborted) return null;
  throw new SpotError("FLEET_TASK_FAILED", `Cannot follow task "${taskId}": the queue has no such task`);
}

/** How many executors alive (or draining) serve the profile, looked up at most every SERVING_MS. */
interface Serving {
  count: number;
  at: number;
}
const SERVING_MS = 10_000;

async function servingNow(queue: Queue, profile: string, last: Serving): Promise<Serving> {
  if (last.count >= 0 && Date.now() - last.at < SERVING_MS) return last;
  const seen = await queue.executors.list().catch(() => null);
  if (seen === null) return { count: -1, at: Date.now() };
  const count =
    seen.filter((e) => (e.status === "alive" || e.status === "draining") && e.profiles.includes(profile))
      .length;
  return { count, at: Date.now() };
}
