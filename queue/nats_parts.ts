/**
 * The nats backend's parts over `@nats-io/*` (docs/fleet.md names what they create on the server): the work
 * stream with one durable pull consumer per profile (its `ack_wait`, in nanoseconds, is the lease), the status
 * bucket as the compare-and-set store, the object store, and the executors' bucket. Every call is wrapped
 * (queue/retry.ts).
 */
import { nanos } from "@nats-io/nats-core";
import { AckPolicy, type JetStreamClient, type JetStreamManager, type JsMsg } from "@nats-io/jetstream";
import { type KV, KvWatchInclude } from "@nats-io/kv";
import type { ObjectStore } from "@nats-io/obj";
import { ExecutorRecord, seenAs } from "./item.ts";
import { abortable, orStalled, retrying } from "./retry.ts";
import { type Delivery, KvConflict, type KvLike, type QueueObjects, type WorkStream } from "./types.ts";

/** A subject token and consumer name for a profile: its name when plain, else `~` and its UTF-8 in hex. */
export function profileToken(profile: string): string {
  if (/^[A-Za-z0-9_-]+$/.test(profile)) return profile;
  return "~" + [...new TextEncoder().encode(profile)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** How long a status watch may take to set up before the caller reads the status by polling alone. */
const WATCH_SETUP_MS = 5_000;

/** JetStream's shortest pull: `next` refuses to wait less. */
const MIN_PULL_MS = 1_000;

export class NatsKv implements KvLike {
  constructor(private readonly kv: KV, private readonly where: string) {}
  async get(key: string) {
    const e = await retrying(`read task "${key}"`, () => this.kv.get(key), { where: this.where });
    return e && e.operation === "PUT" ? { value: e.string(), revision: e.revision } : null;
  }
  create(key: string, value: string) {
    return retrying(`create task "${key}"`, () => this.kv.create(key, value), { where: this.where });
  }
  update(key: string, value: string, revision: number) {
    if (revision === 0) return Promise.reject(new KvConflict(`"${key}" does not exist`));
    return retrying(`update task "${key}"`, () => this.kv.update(key, value, revision), {
      where: this.where,
    });
  }
  /**
   * The bucket's own watch (an ordered consumer the client re-creates after a restart); none if it fails or is
   * not set up within WATCH_SETUP_MS (the client retries a consumer it cannot create without end, as during a
   * server restart): the caller then reads the status every idle interval instead, and a watch that comes up
   * late is stopped.
   */
  async watch(key: string, changed: () => void) {
    const setup = this.kv.watch({ key, include: KvWatchInclude.UpdatesOnly });
    const updates = await orStalled(setup, WATCH_SETUP_MS, `watch task "${key}"`).catch(() => {
      void setup.then((late) => late.stop(), () => {});
      return null;
    });
    if (!updates) return () => {};
    void (async () => {
      for await (const _ of updates) changed();
    })().catch(() => {});
    return () => updates.stop();
  }
}

export class NatsStream implements WorkStream {
  #ready = new Set<string>();
  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly names: { stream: string; subject: (token: string) => string },
    private readonly leaseMs: number,
    private readonly where: string,
  ) {}

  async publish(profile: string, taskId: string, data: string): Promise<void> {
    const subject = this.names.subject(profileToken(profile));
    // The message id lets the server drop a second copy when a publish is retried after a lost answer.
    await retrying(`enqueue "${taskId}"`, () => this.js.publish(subject, data, { msgID: taskId }), {
      where: this.where,
    });
  }

  /** The profile's consumer, made (or its lease brought to this config's) once per process. */
  async #consumer(profile: string, signal?: AbortSignal) {
    const name = `work_${profileToken(profile)}`;
    if (!this.#ready.has(name)) {
      await retrying(`create the consumer for "${profile}"`, () =>
        this.jsm.consumers.add(this.names.stream, {
          durable_name: name,
          ack_policy: AckPolicy.Explicit,
          ack_wait: nanos(this.leaseMs),
          max_deliver: -1,
          filter_subject: this.names.subject(profileToken(profile)),
        }), { where: this.where, signal });
      this.#ready.add(name);
    }
    return await retrying(
      `open the consumer for "${profile}"`,
      () => this.js.consumers.get(this.names.stream, name),
      { where: this.where, signal },
    );
  }

  async next(profiles: readonly string[], waitMs: number, signal?: AbortSignal): Promise<Delivery | null> {
    const until = Date.now() + waitMs;
    const each = Math.max(MIN_PULL_MS, Math.floor(waitMs / Math.max(1, profiles.length)));
    do {
      for (const profile of profiles) {
        if (signal?.aborted) return null;
        const consumer = await this.#consumer(profile, signal);
        const msg = await retrying("wait for work", () => consumer.next({ expires: each }), {
          where: this.where,
          signal,
        });
        if (msg) return delivery(msg);
      }
    } while (Date.now() < until);
    return null;
  }
}

function delivery(msg: JsMsg): Delivery {
  return {
    data: msg.string(),
    working: () => Promise.resolve(msg.working()),
    ack: () => Promise.resolve(msg.ack()),
    term: () => Promise.resolve(msg.term()),
    nak: (delayMs) => Promise.resolve(msg.nak(delayMs)),
  };
}

/** A stream that ran to its end has closed its file already. */
function closeQuietly(file: Deno.FsFile): void {
  try {
    file.close();
  } catch {
    // closed by its stream
  }
}

/** A download that receives nothing for this long is tried again (queue/retry.ts, `orStalled`). */
const STALL_MS = 15_000;

export class NatsObjects implements QueueObjects {
  constructor(private readonly os: ObjectStore, private readonly where: string) {}
  async put(name: string, file: string, meta: Record<string, string> = {}) {
    const once = () =>
      retrying(`store "${name}"`, async () => {
        const handle = await Deno.open(file);
        try {
          await this.os.put({ name, metadata: meta }, handle.readable);
        } finally {
          closeQuietly(handle);
        }
      }, { where: this.where });
    try {
      await once();
    } catch (error) {
      if (!(error instanceof KvConflict)) throw error;
      // Another writer stored the same name at the same moment: names are content (a commit, an attempt), so
      // theirs is as good as ours once it is there.
      if (await this.meta(name)) return;
      await once();
    }
  }
  /** A cancel stops the download at once: between tries, in the server's answer, and mid-stream. */
  async get(name: string, file: string, options: { signal?: AbortSignal } = {}) {
    const { signal } = options;
    const what = `fetch "${name}"`;
    return await retrying(what, async () => {
      const got = await abortable(orStalled(this.os.get(name), STALL_MS, what), signal, what);
      if (!got) return false;
      const reader = got.data.getReader();
      const cancel = () => void reader.cancel().catch(() => {});
      signal?.addEventListener("abort", cancel, { once: true });
      // Written chunk by chunk: piping into the file's writable dropped the last chunk (seen on Deno 2.9).
      const out = await Deno.open(file, { write: true, create: true, truncate: true });
      try {
        for (;;) {
          const read = orStalled(reader.read(), STALL_MS, what).catch((error) => {
            void reader.cancel().catch(() => {});
            throw error;
          });
          const { done, value } = await abortable(read, signal, what);
          if (done) break;
          for (let at = 0; at < value.length;) at += await out.write(value.subarray(at));
        }
      } finally {
        signal?.removeEventListener("abort", cancel);
        closeQuietly(out);
      }
      const error = await abortable(got.error, signal, what);
      if (error) throw error;
      return true;
    }, { where: this.where, signal });
  }
  async meta(name: string) {
    const info = await retrying(`read "${name}"`, () => this.os.info(name), { where: this.where });
    return info && !info.deleted ? { ...(info.metadata ?? {}) } : null;
  }
  async remove(name: string) {
    await retrying(`remove "${name}"`, () => this.os.delete(name).then(() => {}), { where: this.where });
  }
  async list(prefix: string) {
    const all = await retrying("list objects", () => this.os.list(), { where: this.where });
    return all.filter((o) => !o.deleted && o.name.startsWith(prefix)).map((o) => o.name).sort();
  }
}

export function natsExecutors(kv: KV, where: string) {
  return {
    async announce(record: ExecutorRecord) {
      await retrying(
        `announce executor "${record.name}"`,
        () => kv.put(record.name, JSON.stringify(record)),
        {
          where,
        },
      );
    },
    async list() {
      const names: string[] = [];
      const keys = await retrying("list executors", () => kv.keys(), { where });
      for await (const k of keys) names.push(k);
      const out = [];
      for (const name of names.sort()) {
        const e = await retrying(`read executor "${name}"`, () => kv.get(name), { where });
        const parsed = e?.operation === "PUT" ? ExecutorRecord.safeParse(JSON.parse(e.string())) : null;
        if (parsed?.success) out.push(seenAs(parsed.data, Date.now()));
      }
      return out;
    },
  };
}
