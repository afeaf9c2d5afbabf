/**
 * The `nats` backend: a connection to the configured server and, made on first use, what spot keeps there
 * (docs/fleet.md): the work stream `<P>_WORK` (work-queue retention, subjects `<p>.work.<profile>`), the status
 * bucket `<P>_TASKS`, the executors' bucket `<P>_EXECUTORS` and the object store `<P>_OBJECTS`, where `<P>` is
 * `queue.prefix` (SPOT) and `<p>` its lower case. The client is the node transport: `@nats-io/transport-deno` is
 * published on JSR only, which this project cannot reach, and the node one runs under Deno unchanged.
 */
import { connect, credsAuthenticator, type NatsConnection } from "@nats-io/transport-node";
import { nanos } from "@nats-io/nats-core";
import { jetstream, jetstreamManager, RetentionPolicy, StorageType } from "@nats-io/jetstream";
import { Kvm } from "@nats-io/kv";
import { Objm } from "@nats-io/obj";
import { SpotError } from "../errors.ts";
import type { QueueConfig } from "../schemas/config.ts";
import { composeQueue } from "./compose.ts";
import { natsExecutors, NatsKv, NatsObjects, NatsStream } from "./nats_parts.ts";
import { retrying } from "./retry.ts";
import type { Queue } from "./types.ts";

/** A task's status outlives its run by a week: a result that comes back later than that finds nothing to end. */
const TASKS_TTL_MS = 7 * 24 * 3_600_000;
/** An executor that stopped announcing itself a day ago is gone from `spot executor ls`. */
const EXECUTORS_TTL_MS = 24 * 3_600_000;
const CONNECT_TIMEOUT_MS = 5_000;
const MIN_REQUEST_MS = 500;
const MAX_REQUEST_MS = 5_000;
/** A publish retried after a lost answer within this window is stored once (its message id is the task's). */
const DEDUPE_MS = 120_000;
/**
 * How long a close waits for its drain: a drain flushes, and a server that is away (paused, partitioned) never
 * answers a flush, which held a finished command open for good; after this the connection is closed as it is.
 */
const DRAIN_MS = 3_000;

export interface NatsNames {
  stream: string;
  subject: (token: string) => string;
  tasks: string;
  executors: string;
  objects: string;
}

export function natsNames(prefix: string): NatsNames {
  const lower = prefix.toLowerCase();
  return {
    stream: `${prefix}_WORK`,
    subject: (token) => `${lower}.work.${token}`,
    tasks: `${prefix}_TASKS`,
    executors: `${prefix}_EXECUTORS`,
    objects: `${prefix}_OBJECTS`,
  };
}

async function connectTo(config: QueueConfig, client: string): Promise<NatsConnection> {
  const url = config.url!;
  try {
    const creds = config.credentialsFile ? await Deno.readFile(config.credentialsFile) : null;
    return await connect({
      servers: url,
      name: client,
      timeout: CONNECT_TIMEOUT_MS,
      // The client reconnects for as long as it lives; each call rides out the gap (queue/retry.ts).
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      ...(creds ? { authenticator: credsAuthenticator(creds) } : {}),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SpotError("QUEUE_UNAVAILABLE", `Cannot reach the queue at ${url}: ${message}`, {
      details: {
        where: url,
        fix: "start the server (nats-server -js), or check queue.url and queue.credentialsFile",
      },
    });
  }
}

export async function openNatsQueue(config: QueueConfig, options: { client: string }): Promise<Queue> {
  const where = config.url!;
  const nc = await connectTo(config, options.client);
  try {
    const names = natsNames(config.prefix);
    const leaseMs = config.leaseSeconds * 1000;
    // A request lost in a server restart waits out its timeout before it is tried again: keep that well inside
    // the lease, or every holder's heartbeat would stall past it.
    const timeout = Math.min(MAX_REQUEST_MS, Math.max(MIN_REQUEST_MS, Math.floor(leaseMs / 4)));
    const js = jetstream(nc, { timeout });
    const jsm = await retrying("reach JetStream", () => jetstreamManager(nc, { checkAPI: true, timeout }), {
      where,
    })
      .catch((error) => {
        throw new SpotError(
          "QUEUE_UNAVAILABLE",
          `Cannot use the queue at ${where}: JetStream does not answer (${(error as Error).message})`,
          { details: { where, fix: "start nats-server with JetStream on: nats-server -js -sd <store dir>" } },
        );
      });
    await retrying("create the work stream", () =>
      jsm.streams.add({
        name: names.stream,
        subjects: [names.subject(">")],
        retention: RetentionPolicy.Workqueue,
        storage: StorageType.File,
        num_replicas: config.replicas,
        duplicate_window: nanos(DEDUPE_MS),
      }), { where });
    const kvm = new Kvm(js);
    const tasks = await retrying(
      "create the status bucket",
      () =>
        kvm.create(names.tasks, {
          history: 1,
          ttl: TASKS_TTL_MS,
          storage: StorageType.File,
          replicas: config.replicas,
        }),
      { where },
    );
    const executors = await retrying(
      "create the executors' bucket",
      () =>
        kvm.create(names.executors, {
          history: 1,
          ttl: EXECUTORS_TTL_MS,
          storage: StorageType.File,
          replicas: config.replicas,
        }),
      { where },
    );
    const objects = await retrying(
      "create the object store",
      () => new Objm(js).create(names.objects, { storage: StorageType.File, replicas: config.replicas }),
      { where },
    );
    return composeQueue({
      backend: "nats",
      where,
      leaseMs,
      stream: new NatsStream(js, jsm, names, leaseMs, where),
      kv: new NatsKv(tasks, where),
      objects: new NatsObjects(objects, where),
      executors: natsExecutors(executors, where),
      close: async () => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<false>((r) => timer = setTimeout(r, DRAIN_MS, false));
        const drained = await Promise.race([nc.drain().then(() => true, () => false), late]);
        clearTimeout(timer);
        if (!drained) await nc.close().catch(() => {});
      },
    });
  } catch (error) {
    await nc.close().catch(() => {});
    throw error;
  }
}
