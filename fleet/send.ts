/**
 * The origin sends a prepared run to the fleet: the commits its worktree needs go up as bundles
 * (fleet/repo_sync.ts), its turn's attachments (files in its run dir) go with the work item, the item onto the
 * queue, and the run moves to `running` with the task named in `state.fleet`. A run sent again cancels its old
 * task first.
 *
 * The task's id is recorded before the task is queued, and `enqueuedAt` once the queue took it: a sender that
 * dies between the two leaves a run that names its task, so the next `spot run --on fleet` sends that same task
 * (or finds it queued) instead of a second one beside it, which would run twice and be taken over once.
 */
import { relative } from "../base/path.ts";
import { within } from "../sandbox/host_paths.ts";
import { SpotError } from "../errors.ts";
import { moveRun } from "../lifecycle/move.ts";
import type { WorkItem } from "../queue/item.ts";
import type { Queue } from "../queue/types.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { loadTask } from "../store/task_file.ts";
import { hostName } from "./fit.ts";
import { uploadCommit } from "./repo_sync.ts";

/** The turn's files as the item carries them: only files under the run dir, by their path there. */
async function attached(runDir: string, files: string[]): Promise<NonNullable<WorkItem["attachments"]>> {
  const out = [];
  for (const file of files) {
    if (!within(file, runDir) || file === runDir) {
      throw new SpotError(
        "INTERNAL",
        `Cannot send "${file}" with a fleet task: it is not in the run's directory`,
      );
    }
    out.push({ path: relative(runDir, file), content: await Deno.readTextFile(file) });
  }
  return { base: runDir, files: out };
}

export interface SendSpec {
  turn: WorkItem["turn"] & { attachments?: string[] };
  verify: boolean;
  selfReview: boolean;
  jobResult?: WorkItem["jobResult"];
  job?: { jobId: string; task: string };
}

/** A run whose task is recorded but was never confirmed queued: its sender died while sending it. */
export function unsent(state: RunState): boolean {
  return state.status === "running" && state.fleet?.role === "origin" && !state.fleet.enqueuedAt &&
    !state.interruption;
}

export async function sendRun(
  ctx: SpotContext,
  queue: Queue,
  state: RunState,
  spec: SendSpec,
): Promise<RunState> {
  const again = unsent(state) ? state.fleet!.taskId : null;
  const old = state.fleet?.role === "origin" ? state.fleet.taskId : null;
  if (old && old !== again) await queue.cancel(old, "the run was sent again").catch(() => null);
  const task = await loadTask(ctx.store, state.runId);
  const scratch = await Deno.makeTempDir({ prefix: "spot-fleet-send-" });
  try {
    const head = state.baseRevision;
    const start = state.workerBaseRevision;
    const checkout = state.checkoutCommit;
    // Each commit the executor needs goes up once (the later ones build on the earlier).
    let repoId = "";
    for (const commit of new Set([head, start, ...(checkout ? [checkout] : [])])) {
      repoId = await uploadCommit(queue, state.sourceRoot, { commit, scratch });
    }
    const { attachments, ...turn } = spec.turn;
    const { repositoryRoot: _root, baseRevision: _base, runId: _id, ...contract } = task;
    const taskId = again ?? `${state.runId.slice(0, 60)}.${crypto.randomUUID().slice(0, 8)}`;
    const item: WorkItem = {
      schemaVersion: 1,
      taskId,
      origin: {
        host: hostName(),
        runId: state.runId,
        ...(spec.job ? { jobId: spec.job.jobId, jobTask: spec.job.task } : {}),
      },
      repo: { id: repoId, head, start, ...(checkout ? { checkout } : {}) },
      profile: state.profile,
      model: state.model,
      sandbox: state.sandboxDetails?.backend && state.sandboxDetails.backend !== "none" ? "os" : "none",
      contract,
      ...(state.adapter === "replay" ? { episode: await episodeText(state.model) } : {}),
      ...(state.workspaceEnv ? { workspaceEnv: state.workspaceEnv } : {}),
      turn,
      ...(attachments?.length
        ? { attachments: await attached(ctx.store.dir(state.runId), attachments) }
        : {}),
      verify: spec.verify,
      selfReview: spec.selfReview,
      ...(spec.jobResult ? { jobResult: spec.jobResult } : {}),
      enqueuedAt: ctx.now(),
    };
    const fleet = { role: "origin" as const, queue: queue.where, taskId };
    const recorded = again
      ? state
      : await moveRun(ctx, state, "running", `sent to the fleet at ${queue.where} as task ${taskId}`, {
        fleet,
      });
    // The queue may hold it already when the last sender died after queueing it, before it said so.
    const queued = again ? await queue.status(taskId) : null;
    if (!queued) await queue.enqueue(item);
    const now = await ctx.store.load(state.runId);
    const next = {
      ...now,
      fleet: { ...(now.fleet ?? recorded.fleet!), enqueuedAt: queued?.enqueuedAt ?? item.enqueuedAt },
    };
    await ctx.store.save(next);
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

/** The replay episode travels with the task (an executor has no copy of the origin's file); read it whole now. */
async function episodeText(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    throw new SpotError(
      "EPISODE_INVALID",
      `Cannot read replay episode "${path}": ${(error as Error).message}; nothing was sent`,
      {
        details: {
          file: path,
          fix:
            "put the episode back where prepare found it and send again: it goes to the executor with the task",
        },
      },
    );
  }
}
