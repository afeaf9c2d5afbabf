/**
 * What an executor publishes for an attempt, before it asks to complete the task: the tree the worker left,
 * committed (without a ref) on the commit it started from and bundled with only the new objects, and the run
 * record. Both are named by task and attempt, so an attempt that is refused (its lease expired, the task was
 * cancelled) can only leave objects nobody reads; it removes them when it learns it lost.
 */
import { join } from "../base/path.ts";
import { commitTree, objectsDir, writeBundle } from "../git/bundle.ts";
import { computeDelta } from "../git/delta.ts";
import { worktreeOf } from "../lifecycle/worktree.ts";
import type { ResultRef } from "../queue/item.ts";
import type { Claim, Queue } from "../queue/types.ts";
import type { SpotContext } from "../store/context.ts";
import { collectRecord } from "./record.ts";

export const resultPrefix = (taskId: string, attempt: number) => `result/${taskId}/${attempt}/`;

export async function publishAttempt(
  ctx: SpotContext,
  queue: Queue,
  options: { claim: Claim; runId: string; host: string; scratch: string },
): Promise<ResultRef> {
  const { claim, runId } = options;
  const prefix = resultPrefix(claim.item.taskId, claim.attempt);
  const state = await ctx.store.load(runId);
  const base = state.workerBaseRevision;
  let commit: string | undefined;
  let tree: string | undefined;
  let bundle: string | undefined;
  if (state.worktreeReady) {
    const worktree = await worktreeOf(state);
    tree = (await computeDelta(worktree, base, ctx.store.dir(runId))).tree;
    commit = await commitTree(worktree, {
      tree,
      parent: base,
      message: `spot: task ${claim.item.taskId} attempt ${claim.attempt} on ${claim.executor}`,
    });
    const file = join(options.scratch, "result.bundle");
    const objects = await objectsDir(worktree.path, worktree.gitDir);
    await writeBundle(file, { objects: [objects], commit, have: [base], scratch: options.scratch });
    bundle = `${prefix}bundle`;
    await queue.objects.put(bundle, file);
  }
  const record = await collectRecord(ctx, runId, {
    schemaVersion: 1,
    taskId: claim.item.taskId,
    attempt: claim.attempt,
    executor: claim.executor,
    host: options.host,
    base,
    ...(commit ? { commit, tree } : {}),
  });
  const recordFile = join(options.scratch, "record.json");
  await Deno.writeTextFile(recordFile, JSON.stringify(record));
  await queue.objects.put(`${prefix}record.json`, recordFile);
  return { record: `${prefix}record.json`, ...(bundle ? { bundle, commit } : {}) };
}

/** The objects of an attempt whose result was refused, or of one the origin has imported. */
export async function removeAttemptObjects(queue: Queue, taskId: string, attempt: number): Promise<void> {
  for (const name of await queue.objects.list(resultPrefix(taskId, attempt))) {
    await queue.objects.remove(name).catch(() => {});
  }
}
