/**
 * The queue seam (docs/fleet.md): what the origin and the executors ask of wherever work waits. Two backends
 * implement it: `local` (queue/memory.ts: in this process, no server) and `nats` (queue/nats.ts: NATS JetStream,
 * its key-value store and object store). Both are built from the same three parts (queue/compose.ts): a work
 * stream that delivers each item to one claimer at a time and again when its lease runs out, a key-value store
 * with compare-and-set that keeps each task's status (the fence: queue/tasks.ts), and an object store for the
 * git bundles and run records.
 */
import type { ExecutorRecord, ExecutorSeen, ResultRef, SandboxNeed, TaskStatus, WorkItem } from "./item.ts";

/** What an executor can run: the profiles it has (their CLIs installed, their keys at hand) and its sandbox. */
export interface Fit {
  profiles: readonly string[];
  sandbox: SandboxNeed;
}

/** What a heartbeat found: still ours, taken by another attempt (or unreadable too long), or cancelled. */
export type Lease = "held" | "lost" | "cancelled";

/** A task an executor holds: one attempt, fenced by the status record's revision. */
export interface Claim {
  readonly item: WorkItem;
  readonly attempt: number;
  readonly executor: string;
  /** Renews the lease; `lost` and `cancelled` mean: stop, and never touch this task again. */
  heartbeat(): Promise<Lease>;
  /** Ends the task done, once: false when the attempt no longer holds it (its result is refused). */
  complete(result: ResultRef): Promise<boolean>;
  /** Ends the task failed, once: false when the attempt no longer holds it. */
  fail(failure: { code: string; message: string }): Promise<boolean>;
  /** Gives the task back for another executor (a drain, a run slot taken here); nothing is recorded as done. */
  release(why: string): Promise<void>;
}

/** Files by name: the repository's bundles and each attempt's result. */
export interface QueueObjects {
  put(name: string, file: string, meta?: Record<string, string>): Promise<void>;
  /** Writes the object to `file`; false when there is none. `signal` stops it, retries and all, at once. */
  get(name: string, file: string, options?: { signal?: AbortSignal }): Promise<boolean>;
  meta(name: string): Promise<Record<string, string> | null>;
  remove(name: string): Promise<void>;
  list(prefix: string): Promise<string[]>;
}

export interface ExecutorRegistry {
  announce(record: ExecutorRecord): Promise<void>;
  list(): Promise<ExecutorSeen[]>;
}

export interface Queue {
  readonly backend: "local" | "nats";
  /** Where it is, for messages (`nats://127.0.0.1:4222`, `local`). */
  readonly where: string;
  /** The lease: an executor silent this long loses its task. */
  readonly leaseMs: number;
  enqueue(item: WorkItem): Promise<TaskStatus>;
  /** One task that fits, claimed; null when none came within `waitMs`. */
  claim(
    executor: string,
    fit: Fit,
    options?: { waitMs?: number; signal?: AbortSignal },
  ): Promise<Claim | null>;
  status(taskId: string): Promise<TaskStatus | null>;
  /**
   * The task's status now, again on each change, and at least every `idleMs` (1 s) without one, so a waiter can
   * act on time passing; it ends after the status that ended the task, when there is no such task, or when
   * `signal` aborts. A change wakes it at once where the backend pushes changes (the nats status bucket's watch).
   */
  watch(taskId: string, options?: { signal?: AbortSignal; idleMs?: number }): AsyncIterable<TaskStatus>;
  /** Ends a task that has not ended; its holder stops at its next heartbeat. */
  cancel(taskId: string, reason: string): Promise<TaskStatus | null>;
  objects: QueueObjects;
  executors: ExecutorRegistry;
  close(): Promise<void>;
}

/** A key-value store with compare-and-set, as the status table needs it. */
export interface KvLike {
  get(key: string): Promise<{ value: string; revision: number } | null>;
  /** Throws KvConflict when the key exists. */
  create(key: string, value: string): Promise<number>;
  /** Throws KvConflict when the key's revision is not `revision`. */
  update(key: string, value: string, revision: number): Promise<number>;
  /** Calls `changed` after each write of `key` until the returned function is called. */
  watch(key: string, changed: () => void): Promise<() => void>;
}

export class KvConflict extends Error {}

/** One delivery of a work item: the stream redelivers it when neither acked nor kept alive within the lease. */
export interface Delivery {
  readonly data: string;
  /** Keeps the lease alive. */
  working(): Promise<void>;
  /** Done with it: never delivered again. */
  ack(): Promise<void>;
  /** Back to the stream, for another claimer after `delayMs`. */
  nak(delayMs?: number): Promise<void>;
  /** Never deliver it again (it has ended or cannot be read). */
  term(): Promise<void>;
}

export interface WorkStream {
  publish(profile: string, taskId: string, data: string): Promise<void>;
  next(profiles: readonly string[], waitMs: number, signal?: AbortSignal): Promise<Delivery | null>;
}
