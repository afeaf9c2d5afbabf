/**
 * A queue from its parts: a work stream, the status table (queue/tasks.ts) and the object store. The stream
 * decides who gets a delivery and when it comes again; the status table decides whether a delivery may become a
 * claim and whether a claim may end the task. A claimer touches its delivery only while the table says it holds
 * the task: the stream's acknowledgements are per message, so an old holder that acked would end the new one's
 * delivery.
 */
import { ENDED, type ResultRef, type TaskStatus, WorkItem } from "./item.ts";
import {
  cancelTask,
  createStatus,
  endTask,
  type Held,
  readStatus,
  releaseTask,
  renewTask,
  takeTask,
} from "./tasks.ts";
import type {
  Claim,
  Delivery,
  ExecutorRegistry,
  Fit,
  KvLike,
  Lease,
  Queue,
  QueueObjects,
  WorkStream,
} from "./types.ts";

/** How long an unfit delivery (its sandbox is not this executor's) waits before it is offered again. */
const UNFIT_DELAY_MS = 1_000;

export interface QueueParts {
  backend: "local" | "nats";
  where: string;
  leaseMs: number;
  stream: WorkStream;
  kv: KvLike;
  objects: QueueObjects;
  executors: ExecutorRegistry;
  close: () => Promise<void>;
  now?: () => string;
}

class HeldClaim implements Claim {
  #held: Held;
  #gone = false;
  constructor(
    readonly item: WorkItem,
    held: Held,
    private readonly delivery: Delivery,
    private readonly parts: QueueParts,
    private readonly now: () => string,
  ) {
    this.#held = held;
  }
  get attempt(): number {
    return this.#held.attempt;
  }
  get executor(): string {
    return this.#held.executor;
  }

  async heartbeat(): Promise<Lease> {
    if (this.#gone) return "lost";
    const renewed = await renewTask(this.parts.kv, this.#held, this.now());
    if (renewed === "lost" || renewed === "cancelled") {
      this.#gone = true;
      // A cancelled task has ended: its message can go (a redelivery would be terminated anyway).
      if (renewed === "cancelled") await this.delivery.term().catch(() => {});
      return renewed;
    }
    this.#held = renewed;
    await this.delivery.working().catch(() => {});
    return "held";
  }

  async #end(end: Parameters<typeof endTask>[2]): Promise<boolean> {
    if (this.#gone) return false;
    const won = await endTask(this.parts.kv, this.#held, end, this.now());
    this.#gone = true;
    // Acked only by the winner; a lost ack is harmless: the redelivery finds the task ended and drops it.
    if (won) await this.delivery.ack().catch(() => {});
    return won;
  }

  complete(result: ResultRef): Promise<boolean> {
    return this.#end({ state: "done", result });
  }

  fail(failure: { code: string; message: string }): Promise<boolean> {
    return this.#end({ state: "failed", failure });
  }

  async release(why: string): Promise<void> {
    if (this.#gone) return;
    this.#gone = true;
    if (await releaseTask(this.parts.kv, this.#held, why, this.now())) {
      await this.delivery.nak(0).catch(() => {});
    }
  }
}

export function composeQueue(parts: QueueParts): Queue {
  const now = parts.now ?? (() => new Date().toISOString());
  return {
    backend: parts.backend,
    where: parts.where,
    leaseMs: parts.leaseMs,
    objects: parts.objects,
    executors: parts.executors,
    close: parts.close,
    async enqueue(item) {
      const status = await createStatus(parts.kv, item);
      await parts.stream.publish(item.profile, item.taskId, JSON.stringify(item));
      return status;
    },
    async claim(executor: string, fit: Fit, options = {}) {
      const delivery = await parts.stream.next(fit.profiles, options.waitMs ?? 1_000, options.signal);
      if (!delivery) return null;
      const parsed = WorkItem.safeParse(safeJson(delivery.data));
      if (!parsed.success) {
        // Nobody can run what nobody can read; it must not come round forever.
        await delivery.term().catch(() => {});
        return null;
      }
      const item = parsed.data;
      // An OS-sandboxed task never runs without one; and work without one goes only to an executor whose own
      // config runs without one (a queue writer must not be able to switch an executor's sandbox off).
      if (item.sandbox !== fit.sandbox) {
        await delivery.nak(UNFIT_DELAY_MS).catch(() => {});
        return null;
      }
      const taken = await takeTask(parts.kv, item.taskId, executor, now());
      if ("ended" in taken) {
        await delivery.term().catch(() => {});
        return null;
      }
      return new HeldClaim(item, taken.held, delivery, parts, now);
    },
    status: (taskId) => readStatus(parts.kv, taskId),
    watch: (taskId, options = {}) => watchStatus(parts.kv, taskId, options),
    cancel: (taskId, reason) => cancelTask(parts.kv, taskId, reason, now()),
  };
}

async function* watchStatus(
  kv: KvLike,
  taskId: string,
  options: { signal?: AbortSignal; idleMs?: number },
): AsyncGenerator<TaskStatus> {
  const { signal, idleMs = 1_000 } = options;
  let woken = false;
  let wake = () => {};
  const stop = await kv.watch(taskId, () => (woken = true, wake())).catch(() => () => {});
  try {
    while (!signal?.aborted) {
      woken = false;
      const status = await readStatus(kv, taskId);
      if (!status) return;
      yield status;
      if (ENDED.has(status.state)) return;
      if (woken || signal?.aborted) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => wake(), idleMs);
        wake = () => (clearTimeout(timer), signal?.removeEventListener("abort", wake), resolve());
        signal?.addEventListener("abort", wake, { once: true });
      });
      wake = () => {};
    }
  } finally {
    stop();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
