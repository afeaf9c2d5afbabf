/**
 * The `local` backend: the queue held in this process, with the same leases, redeliveries and fence as the nats
 * backend (the seam's contract tests run against both). Nothing outside the process can reach it, so it serves
 * work done here: spot's default, where a job's coordinator runs its tasks itself and no executor is involved.
 */
import { SpotError } from "../errors.ts";
import { composeQueue } from "./compose.ts";
import { type ExecutorRecord, seenAs } from "./item.ts";
import {
  type Delivery,
  KvConflict,
  type KvLike,
  type Queue,
  type QueueObjects,
  type WorkStream,
} from "./types.ts";

/** How often a waiting claim looks again. */
const POLL_MS = 10;

class MemoryKv implements KvLike {
  #entries = new Map<string, { value: string; revision: number }>();
  #seq = 0;
  #watchers = new Map<string, Set<() => void>>();
  get(key: string) {
    return Promise.resolve(this.#entries.get(key) ?? null);
  }
  create(key: string, value: string) {
    if (this.#entries.has(key)) return Promise.reject(new KvConflict(`"${key}" exists`));
    this.#entries.set(key, { value, revision: ++this.#seq });
    this.#changed(key);
    return Promise.resolve(this.#seq);
  }
  update(key: string, value: string, revision: number) {
    const was = this.#entries.get(key);
    if (was?.revision !== revision) return Promise.reject(new KvConflict(`"${key}" moved past ${revision}`));
    this.#entries.set(key, { value, revision: ++this.#seq });
    this.#changed(key);
    return Promise.resolve(this.#seq);
  }
  watch(key: string, changed: () => void) {
    const set = this.#watchers.get(key) ?? new Set();
    this.#watchers.set(key, set.add(changed));
    return Promise.resolve(() => void set.delete(changed));
  }
  #changed(key: string) {
    for (const changed of this.#watchers.get(key) ?? []) changed();
  }
}

interface Message {
  profile: string;
  data: string;
  gone: boolean;
  /** Free to deliver from this time (after a nak's delay, or when its lease ran out). */
  availableAt: number;
}

class MemoryStream implements WorkStream {
  #messages: Message[] = [];
  constructor(private readonly leaseMs: number) {}

  publish(profile: string, _taskId: string, data: string): Promise<void> {
    this.#messages.push({ profile, data, gone: false, availableAt: 0 });
    return Promise.resolve();
  }

  async next(profiles: readonly string[], waitMs: number, signal?: AbortSignal): Promise<Delivery | null> {
    const until = Date.now() + waitMs;
    for (;;) {
      const now = Date.now();
      const m = this.#messages.find((m) => !m.gone && profiles.includes(m.profile) && m.availableAt <= now);
      if (m) {
        m.availableAt = now + this.leaseMs;
        return this.#delivery(m);
      }
      if (now >= until || signal?.aborted) return null;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  #delivery(m: Message): Delivery {
    const leaseMs = this.leaseMs;
    const done = () => {
      m.gone = true;
      this.#messages = this.#messages.filter((x) => !x.gone);
      return Promise.resolve();
    };
    return {
      data: m.data,
      working: () => {
        if (!m.gone) m.availableAt = Date.now() + leaseMs;
        return Promise.resolve();
      },
      ack: done,
      term: done,
      nak: (delayMs = 0) => {
        m.availableAt = Date.now() + delayMs;
        return Promise.resolve();
      },
    };
  }
}

class MemoryObjects implements QueueObjects {
  #objects = new Map<string, { bytes: Uint8Array; meta: Record<string, string> }>();
  async put(name: string, file: string, meta: Record<string, string> = {}) {
    this.#objects.set(name, { bytes: await Deno.readFile(file), meta });
  }
  async get(name: string, file: string, options: { signal?: AbortSignal } = {}) {
    if (options.signal?.aborted) throw new SpotError("CANCELLED", `Cannot fetch "${name}": it was cancelled`);
    const o = this.#objects.get(name);
    if (!o) return false;
    await Deno.writeFile(file, o.bytes);
    return true;
  }
  meta(name: string) {
    return Promise.resolve(this.#objects.get(name)?.meta ?? null);
  }
  remove(name: string) {
    this.#objects.delete(name);
    return Promise.resolve();
  }
  list(prefix: string) {
    return Promise.resolve([...this.#objects.keys()].filter((k) => k.startsWith(prefix)).sort());
  }
}

/** A queue in this process; `leaseMs` as the nats backend's `leaseSeconds`. */
export function memoryQueue(options: { leaseMs: number }): Queue {
  const executors = new Map<string, ExecutorRecord>();
  return composeQueue({
    backend: "local",
    where: "local",
    leaseMs: options.leaseMs,
    stream: new MemoryStream(options.leaseMs),
    kv: new MemoryKv(),
    objects: new MemoryObjects(),
    executors: {
      announce: (record) => {
        executors.set(record.name, record);
        return Promise.resolve();
      },
      list: () => Promise.resolve([...executors.values()].map((r) => seenAs(r, Date.now()))),
    },
    close: () => Promise.resolve(),
  });
}
