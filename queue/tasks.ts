/**
 * The task status table and its fence. Every change is a compare-and-set on the record's revision, so of two
 * writers that read the same revision exactly one wins. A claim takes the next attempt number; only the holder
 * of the current attempt may renew, end or give the task back, and a task ends once: an executor whose lease ran
 * out (another attempt took the task) or whose task was cancelled gets `false`, and its result is refused.
 *
 * A write whose answer was lost (the server restarted under it) is retried by reading the record back: each write
 * carries a fresh `writeId`, so finding our own id means the write happened.
 */
import { ENDED, type ResultRef, TaskStatus, type WorkItem } from "./item.ts";
import { KvConflict, type KvLike } from "./types.ts";

/** An attempt's hold on its task: the revision of the last write it made. */
export interface Held {
  taskId: string;
  attempt: number;
  executor: string;
  revision: number;
}

/** Enough to decide against one writer that keeps racing (a record rewritten this often is a bug). */
const MAX_ROUNDS = 20;

const parse = (value: string): TaskStatus => TaskStatus.parse(JSON.parse(value));

async function read(kv: KvLike, taskId: string): Promise<{ status: TaskStatus; revision: number } | null> {
  const got = await kv.get(taskId);
  return got ? { status: parse(got.value), revision: got.revision } : null;
}

type Decision<T> = { write: TaskStatus; then: (revision: number, status: TaskStatus) => T } | { done: T };

/** Reads, decides, writes with compare-and-set; on a conflict reads again (our own lost write counts as ours). */
async function change<T>(
  kv: KvLike,
  taskId: string,
  decide: (current: { status: TaskStatus; revision: number } | null) => Decision<T>,
): Promise<T> {
  let pending: { writeId: string; then: (revision: number, status: TaskStatus) => T } | null = null;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await read(kv, taskId);
    if (pending && current?.status.writeId === pending.writeId) {
      return pending.then(current.revision, current.status);
    }
    const decision = decide(current);
    if ("done" in decision) return decision.done;
    pending = { writeId: decision.write.writeId, then: decision.then };
    try {
      const revision = await kv.update(taskId, JSON.stringify(decision.write), current?.revision ?? 0);
      return decision.then(revision, decision.write);
    } catch (error) {
      if (!(error instanceof KvConflict)) throw error;
    }
  }
  throw new Error(`the status of task "${taskId}" kept changing under ${MAX_ROUNDS} writes`);
}

const fresh = () => crypto.randomUUID();

/** The task's first record: queued, attempt 0. */
export async function createStatus(kv: KvLike, item: WorkItem): Promise<TaskStatus> {
  const status: TaskStatus = {
    taskId: item.taskId,
    state: "queued",
    attempt: 0,
    profile: item.profile,
    sandbox: item.sandbox,
    origin: { host: item.origin.host, runId: item.origin.runId },
    enqueuedAt: item.enqueuedAt,
    history: [],
    writeId: fresh(),
  };
  try {
    await kv.create(item.taskId, JSON.stringify(status));
  } catch (error) {
    // A create whose answer was lost and was tried again finds its own record: that is success.
    if (!(error instanceof KvConflict) || (await readStatus(kv, item.taskId))?.writeId !== status.writeId) {
      throw error;
    }
  }
  return status;
}

export async function readStatus(kv: KvLike, taskId: string): Promise<TaskStatus | null> {
  return (await read(kv, taskId))?.status ?? null;
}

/**
 * A delivery reached `executor`: take the next attempt. A task still running under another attempt is taken over
 * (the stream redelivers only when that attempt's lease ran out), and the old attempt is written into the history.
 */
export function takeTask(
  kv: KvLike,
  taskId: string,
  executor: string,
  at: string,
): Promise<{ held: Held; status: TaskStatus } | { ended: TaskStatus | null }> {
  return change<{ held: Held; status: TaskStatus } | { ended: TaskStatus | null }>(kv, taskId, (current) => {
    if (!current || ENDED.has(current.status.state)) return { done: { ended: current?.status ?? null } };
    const was = current.status;
    const history = was.state === "running" && was.executor
      ? [...was.history, { attempt: was.attempt, executor: was.executor, outcome: "lease expired", at }]
      : was.history;
    const { failure: _f, result: _r, ...kept } = was;
    const write: TaskStatus = {
      ...kept,
      state: "running",
      attempt: was.attempt + 1,
      executor,
      claimedAt: at,
      heartbeatAt: at,
      history,
      writeId: fresh(),
    };
    return {
      write,
      then: (revision, status) => ({ held: { taskId, attempt: status.attempt, executor, revision }, status }),
    };
  });
}

const ours = (held: Held, status: TaskStatus | undefined) =>
  status?.state === "running" && status.attempt === held.attempt && status.executor === held.executor;

/** The heartbeat's write: `held` with the new revision, or why the attempt must stop. */
export function renewTask(kv: KvLike, held: Held, at: string): Promise<Held | "lost" | "cancelled"> {
  return change<Held | "lost" | "cancelled">(kv, held.taskId, (current) => {
    if (current?.status.state === "cancelled") return { done: "cancelled" };
    if (!current || !ours(held, current.status)) return { done: "lost" };
    return {
      write: { ...current.status, heartbeatAt: at, writeId: fresh() },
      then: (revision) => ({ ...held, revision }),
    };
  });
}

/** Ends the task done or failed, once, and only for the attempt that holds it. */
export function endTask(
  kv: KvLike,
  held: Held,
  end: { state: "done"; result: ResultRef } | { state: "failed"; failure: { code: string; message: string } },
  at: string,
): Promise<boolean> {
  return change<boolean>(kv, held.taskId, (current) => {
    if (!current || !ours(held, current.status)) return { done: false };
    return { write: { ...current.status, ...end, endedAt: at, writeId: fresh() }, then: () => true };
  });
}

/** Back to queued for another executor; the attempt is kept in the history with `why`. */
export function releaseTask(kv: KvLike, held: Held, why: string, at: string): Promise<boolean> {
  return change<boolean>(kv, held.taskId, (current) => {
    if (!current || !ours(held, current.status)) return { done: false };
    const { executor: _e, claimedAt: _c, heartbeatAt: _h, ...kept } = current.status;
    const history = [...kept.history, { attempt: held.attempt, executor: held.executor, outcome: why, at }];
    return { write: { ...kept, state: "queued", history, writeId: fresh() }, then: () => true };
  });
}

/** Ends a task that has not ended as cancelled; an ended one is returned as it is. */
export function cancelTask(
  kv: KvLike,
  taskId: string,
  reason: string,
  at: string,
): Promise<TaskStatus | null> {
  return change<TaskStatus | null>(kv, taskId, (current) => {
    if (!current) return { done: null };
    if (ENDED.has(current.status.state)) return { done: current.status };
    const write: TaskStatus = {
      ...current.status,
      state: "cancelled",
      failure: { code: "CANCELLED", message: reason },
      endedAt: at,
      writeId: fresh(),
    };
    return { write, then: (_, status) => status };
  });
}
