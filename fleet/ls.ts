/** `spot executor ls`: every executor the queue knows, with its capacity, load and last heartbeat. */
import type { ExecutorSeen } from "../queue/item.ts";
import { openQueue } from "../queue/open.ts";
import type { QueueConfig } from "../schemas/config.ts";
import type { SpotContext } from "../store/context.ts";
import { hostName } from "./fit.ts";

/** The queue's address as the client names it, and every executor it knows. */
export interface ExecutorList {
  /** The queue's address. */
  where: string;
  /** Every executor that announced itself there, stopped ones included. */
  executors: ExecutorSeen[];
}

export function listExecutors(ctx: SpotContext): Promise<ExecutorList> {
  return listOn(ctx.config.queue);
}

/** The executors on the configured queue (the dashboard's fleet page asks this too). */
export async function listOn(config: QueueConfig): Promise<ExecutorList> {
  const queue = await openQueue(config, {
    client: `spot ls ${hostName()}`,
    doing: "list executors",
  });
  try {
    return { where: queue.where, executors: await queue.executors.list() };
  } finally {
    await queue.close();
  }
}
