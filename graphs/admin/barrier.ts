/**
 * `spot job barrier JOB ID... [--timeout-ms N]`: `wait`, for some tasks only. It returns once every named task
 * is terminal: exit 0 when all of them succeeded, BARRIER_FAILED (exit 3) naming the ones that did not, and
 * `waiting: true` when its window (`--timeout-ms`; by default until the job ends) ended first. The rest of the job may still be running. Like `wait`, it fails
 * JOB_NOT_RUNNING when the job has had no coordinator for a while (graphs/verbs.ts `coordinatorWatch`).
 */
import { SpotError } from "../../errors.ts";
import type { SpotContext } from "../../store/context.ts";
import { type TaskStateName, TERMINAL } from "../schedule.ts";
import { jobStatus, type JobView } from "../verbs.ts";
import { coordinatorWatch, untilJobEnds } from "./wait.ts";

/** How often the barrier looks again (the same as `wait`). */
const POLL_MS = 200;

type TaskView = JobView["tasks"][number];

/** Where the named tasks stand: still going, all succeeded, or settled with the ones that did not succeed. */
export function barrierOutcome(tasks: readonly TaskView[]): "open" | "passed" | TaskView[] {
  if (!tasks.every((t) => TERMINAL.has(t.state as TaskStateName))) return "open";
  const bad = tasks.filter((t) => t.state !== "succeeded");
  return bad.length ? bad : "passed";
}

/** The named tasks, in the order given, once each; JOB_INVALID naming the job's tasks when one is unknown. */
export function namedTasks(jobId: string, view: JobView, ids: readonly string[]): TaskView[] {
  const unknown = ids.filter((id) => !view.tasks.some((t) => t.id === id));
  if (unknown.length) {
    const known = view.tasks.map((t) => t.id);
    throw new SpotError(
      "JOB_INVALID",
      `Cannot wait for ${
        unknown.map((id) => `"${id}"`).join(", ")
      }: job ${jobId} has no such task (its tasks: ${known.join(", ") || "none"})`,
      { details: { jobId, unknown, known } },
    );
  }
  return [...new Set(ids)].map((id) => view.tasks.find((t) => t.id === id)!);
}

export async function barrierJob(
  ctx: SpotContext,
  jobId: string,
  ids: readonly string[],
  options: { timeoutMs?: number; graceMs?: number } = {},
) {
  if (!ids.length) {
    throw new SpotError("CLI_USAGE", "Cannot wait at a barrier of no tasks: name at least one");
  }
  const end = Date.now() + (options.timeoutMs ?? await untilJobEnds(ctx, jobId));
  const watch = coordinatorWatch(options.graceMs);
  for (;;) {
    const view = await jobStatus(ctx, jobId);
    const tasks = namedTasks(jobId, view, ids);
    const out = { jobId, status: view.status, coordinatorAlive: view.coordinatorAlive, tasks };
    const outcome = barrierOutcome(tasks);
    if (outcome === "passed") return { ...out, waiting: false };
    if (outcome !== "open") {
      throw new SpotError(
        "BARRIER_FAILED",
        `Barrier of job "${jobId}" failed: ${outcome.map((t) => `${t.id} ${t.state}`).join(", ")}`,
        { details: { ...out, failed: outcome.map((t) => t.id), waiting: false } },
      );
    }
    watch(view);
    if (Date.now() >= end) return { ...out, waiting: true };
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
