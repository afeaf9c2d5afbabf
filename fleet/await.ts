/**
 * The origin's side of a task on the fleet: sending a prepared run out, and following its task until it ends.
 * The repository's state goes up as bundles (fleet/repo_sync.ts), the work item onto the queue, and the run moves
 * to `running` with the task named in `state.fleet`. Following it writes each claim and each lost attempt to the
 * run's events; a task nobody claims within `queue.claimTimeoutSeconds` is cancelled (FLEET_UNCLAIMED).
 */
import { hostName } from "./fit.ts";
import { SpotError } from "../errors.ts";
import { moveRun } from "../lifecycle/move.ts";
import { ENDED, type TaskStatus, type WorkItem } from "../queue/item.ts";
import type { Queue } from "../queue/types.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { loadTask } from "../store/task_file.ts";
import { uploadCommit } from "./repo_sync.ts";

/** How often the origin reads the task's status. */
const POLL_MS = 250;

export interface SendSpec {
  turn: WorkItem["turn"];
  verify: boolean;
  selfReview: boolean;
  jobResult?: WorkItem["jobResult"];
  job?: { jobId: string; task: string };
}

export async function sendRun(
  ctx: SpotContext,
  queue: Queue,
  state: RunState,
  spec: SendSpec,
): Promise<RunState> {
  const old = state.fleet?.role === "origin" ? state.fleet.taskId : null;
  if (old) await queue.cancel(old, "the run was sent again").catch(() => null);
  const task = await loadTask(ctx.store, state.runId);
  const scratch = await Deno.makeTempDir({ prefix: "spot-fleet-send-" });
  try {
    const head = state.baseRevision;
    const start = state.workerBaseRevision;
    const repoId = await uploadCommit(queue, state.sourceRoot, { commit: head, scratch });
    if (start !== head) await uploadCommit(queue, state.sourceRoot, { commit: start, scratch });
    const { repositoryRoot: _root, baseRevision: _base, runId: _id, ...contract } = task;
    const taskId = `${state.runId.slice(0, 60)}.${crypto.randomUUID().slice(0, 8)}`;
    const item: WorkItem = {
      schemaVersion: 1,
      taskId,
      origin: {
        host: hostName(),
        runId: state.runId,
        ...(spec.job ? { jobId: spec.job.jobId, jobTask: spec.job.task } : {}),
      },
      repo: { id: repoId, head, start },
      profile: state.profile,
      model: state.model,
      sandbox: state.sandboxDetails?.backend && state.sandboxDetails.backend !== "none" ? "os" : "none",
      contract,
      ...(state.adapter === "replay" ? { episode: await Deno.readTextFile(state.model) } : {}),
      ...(state.workspaceEnv ? { workspaceEnv: state.workspaceEnv } : {}),
      turn: spec.turn,
      verify: spec.verify,
      selfReview: spec.selfReview,
      ...(spec.jobResult ? { jobResult: spec.jobResult } : {}),
      enqueuedAt: ctx.now(),
    };
    await queue.enqueue(item);
    const fleet = { role: "origin" as const, queue: queue.where, taskId, enqueuedAt: item.enqueuedAt };
    const next = await moveRun(
      ctx,
      state,
      "running",
      `sent to the fleet at ${queue.where} as task ${taskId}`,
      {
        fleet,
      },
    );
    await ctx.store.event(state.runId, {
      type: "fleet",
      state: "queued",
      taskId,
      message: `profile ${item.profile}, ${item.sandbox === "os" ? "an OS sandbox" : "no OS sandbox"}`,
    });
    return next;
  } finally {
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((r) => {
    const t = setTimeout(r, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), r()), { once: true });
  });

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
  while (!options.signal?.aborted) {
    const status = await queue.status(taskId);
    if (!status) {
      throw new SpotError("FLEET_TASK_FAILED", `Cannot follow task "${taskId}": the queue has no such task`);
    }
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
      ctx.progress?.(`run ${runId}: queued on ${queue.where}, waiting for an executor`);
    }
    await sleep(POLL_MS, options.signal);
  }
  return null;
}
