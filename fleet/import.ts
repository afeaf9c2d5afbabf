/**
 * The origin takes an executor's result over (docs/fleet.md). The transport commit is unbundled (objects only)
 * and its tree made the worktree's uncommitted changes, exactly what the worker's turn would have left here; the
 * diff spot computes from it must be the transport commit's tree and hash to the executor's verification record,
 * or the run is blocked FLEET_RESULT_MISMATCH. Then the record's files join the run's (events with their own
 * times, the executor's transitions as notes), and the run moves to where the executor's run ended, through the
 * same table. From there `approve` and `integrate` are today's: every gate again, here.
 */
import { join } from "../base/path.ts";
import { checkoutTreeAsChanges, readBundleHeader, unbundle } from "../git/bundle.ts";
import { computeDelta } from "../git/delta.ts";
import { gitText } from "../git/git.ts";
import { blockRun } from "../lifecycle/block.ts";
import { moveRun } from "../lifecycle/move.ts";
import { worktreeOf } from "../lifecycle/worktree.ts";
import type { TaskStatus } from "../queue/item.ts";
import type { Queue } from "../queue/types.ts";
import { SpotEvent } from "../schemas/events.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { appendJsonLine } from "../store/files.ts";
import { renderWorkerLogLine } from "../store/worker_log.ts";
import { SpotError } from "../errors.ts";
import { parseRecord, type RunRecord } from "./record.ts";
import { removeAttemptObjects } from "./publish.ts";

/** The record's files the run takes as they are (the executor's run id inside them replaced by the origin's). */
const COPIED = ["review-guide.json", "self-review.json"] as const;
const APPENDED = [
  "steps.jsonl",
  "worker-stream.jsonl",
  "forwarder.jsonl",
  "worker-egress.jsonl",
  "worker-web.jsonl",
  "setup-egress.jsonl",
] as const;

async function fetchRecord(queue: Queue, status: TaskStatus, scratch: string): Promise<RunRecord> {
  const file = join(scratch, "record.json");
  if (!status.result || !(await queue.objects.get(status.result.record, file))) {
    throw new SpotError(
      "FLEET_TASK_FAILED",
      `Cannot import task "${status.taskId}": its run record is missing`,
    );
  }
  const record = parseRecord(await Deno.readTextFile(file));
  if (record.taskId !== status.taskId || record.attempt !== status.attempt) {
    throw new SpotError(
      "FLEET_TASK_FAILED",
      `Cannot import task "${status.taskId}": its record is another attempt's`,
    );
  }
  return record;
}

/** The executor's events, read as spot's event union, in the origin's run; transitions become notes. */
async function importEvents(ctx: SpotContext, runId: string, record: RunRecord): Promise<void> {
  for (const line of (record.files["events.jsonl"] ?? "").split("\n")) {
    if (!line.trim()) continue;
    const parsed = SpotEvent.safeParse(JSON.parse(line));
    if (!parsed.success) continue;
    let event: SpotEvent = { ...parsed.data, runId };
    if (event.type === "transition") {
      event = {
        at: event.at,
        runId,
        type: "note",
        message: `on ${record.executor}: ${event.from ?? "-"} -> ${event.to}: ${event.reason}`,
      };
    }
    await appendJsonLine(ctx.store.file(runId, "events.jsonl"), event);
    const text = renderWorkerLogLine(event);
    if (text !== null) {
      await Deno.writeTextFile(ctx.store.file(runId, "worker.log"), text + "\n", { append: true });
    }
  }
}

async function importFiles(ctx: SpotContext, runId: string, record: RunRecord): Promise<void> {
  const own = (text: string) => text.replaceAll(JSON.stringify(record.runId), JSON.stringify(runId));
  for (const name of APPENDED) {
    const text = record.files[name];
    if (text) await Deno.writeTextFile(ctx.store.file(runId, name), text, { append: true, create: true });
  }
  for (const name of COPIED) {
    const text = record.files[name];
    if (text) await ctx.store.writeText(runId, name, own(text));
  }
  const verification = record.files["verification.json"];
  if (verification) await ctx.store.writeText(runId, "verification.json", own(verification));
}

/** What the executor's run did that the origin's run takes: its turns' spend, who ran them, where, and the verdict. */
function merged(state: RunState, remote: RunState, record: RunRecord, at: string): RunState {
  return {
    ...state,
    profile: remote.profile,
    adapter: remote.adapter,
    provider: remote.provider,
    model: state.adapter === "replay" ? state.model : remote.model,
    sandbox: remote.sandbox,
    sandboxDetails: remote.sandboxDetails,
    fallbackUsed: remote.fallbackUsed,
    workerUsage: remote.workerUsage,
    workerCostUsd: remote.workerCostUsd,
    workerDurationMs: remote.workerDurationMs,
    workerAttempts: remote.workerAttempts,
    lastVerificationPassed: remote.lastVerificationPassed,
    diffSha256: remote.diffSha256,
    diffBytes: remote.diffBytes,
    fleet: { ...state.fleet!, executor: record.executor, attempt: record.attempt, importedAt: at },
    updatedAt: at,
  };
}

/** Brings the tree in and checks it is the one the executor verified; returns the diff's hash. */
async function importTree(
  ctx: SpotContext,
  state: RunState,
  queue: Queue,
  record: RunRecord,
  scratch: string,
) {
  const file = join(scratch, "result.bundle");
  if (!(await queue.objects.get(`result/${record.taskId}/${record.attempt}/bundle`, file))) {
    throw new SpotError(
      "FLEET_TASK_FAILED",
      `Cannot import task "${record.taskId}": its result bundle is missing`,
    );
  }
  const { heads } = await readBundleHeader(file);
  if (heads[0] !== record.commit) return { problem: `the bundle carries ${heads[0]}, not ${record.commit}` };
  await unbundle(state.sourceRoot, file);
  const tree = await gitText(["rev-parse", `${record.commit}^{tree}`], { cwd: state.sourceRoot });
  if (tree !== record.tree) {
    return { problem: `commit ${record.commit} holds tree ${tree}, not ${record.tree}` };
  }
  const worktree = await worktreeOf(state);
  await checkoutTreeAsChanges(worktree, tree);
  const delta = await computeDelta(worktree, state.workerBaseRevision, ctx.store.dir(state.runId));
  if (delta.tree !== tree) return { problem: `the worktree holds tree ${delta.tree}, not ${tree}` };
  const verified = record.state.diffSha256;
  if (record.files["verification.json"] && verified && verified !== delta.diffSha256) {
    return { problem: `the diff hashes to ${delta.diffSha256}, the verification record says ${verified}` };
  }
  await ctx.store.writeText(state.runId, "diff.patch", delta.diff);
  return { problem: null };
}

export async function importResult(
  ctx: SpotContext,
  queue: Queue,
  options: { state: RunState; status: TaskStatus; scratch: string },
): Promise<RunState> {
  let state = options.state;
  const record = await fetchRecord(queue, options.status, options.scratch);
  const runId = state.runId;
  const taskId = record.taskId;
  if (record.commit) {
    const { problem } = await importTree(ctx, state, queue, record, options.scratch);
    if (problem) {
      await ctx.store.event(runId, {
        type: "fleet",
        state: "refused",
        taskId,
        executor: record.executor,
        message: problem,
      });
      await blockRun(
        ctx,
        state,
        "FLEET_RESULT_MISMATCH",
        `the result of ${record.executor} is not what it verified: ${problem}`,
      );
    }
  }
  await importEvents(ctx, runId, record);
  await importFiles(ctx, runId, record);
  const remote = record.state;
  state = await ctx.store.save(merged(state, remote, record, ctx.now()));
  await ctx.store.event(runId, {
    type: "fleet",
    state: "imported",
    taskId,
    executor: record.executor,
    attempt: record.attempt,
    message: `its run ended ${remote.status}`,
  });
  const on = ` on executor ${record.executor}`;
  if (state.status === "running" && remote.transitions.some((t) => t.to === "verifying")) {
    state = await moveRun(ctx, state, "verifying", `worker finished${on}`);
  }
  if (remote.status !== state.status && remote.status !== "running" && remote.status !== "prepared") {
    const last = remote.transitions.at(-1);
    state = await moveRun(ctx, state, remote.status, `${last?.reason ?? remote.status}${on}`, {
      failure: remote.failure,
      blockedReason: remote.blockedReason,
      selfReviewSkipped: remote.selfReviewSkipped,
      selfReviewSkipReason: remote.selfReviewSkipReason,
    });
  }
  await removeAttemptObjects(queue, taskId, record.attempt).catch(() => {});
  return state;
}
