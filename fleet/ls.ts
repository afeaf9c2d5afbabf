/** `spot executor ls`: every executor the queue knows, with its capacity, load and last heartbeat. */
import type { ExecutorSeen } from "../queue/item.ts";
import { openQueue } from "../queue/open.ts";
import type { QueueConfig } from "../schemas/config.ts";
import type { SpotContext } from "../store/context.ts";
import { hostName } from "./fit.ts";

export function listExecutors(ctx: SpotContext): Promise<{ where: string; executors: ExecutorSeen[] }> {
  return listOn(ctx.config.queue);
}

/** The executors on the configured queue (the dashboard's fleet page asks this too). */
export async function listOn(config: QueueConfig): Promise<{ where: string; executors: ExecutorSeen[] }> {
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

function ago(at: string, nowMs: number): string {
  const s = Math.max(0, Math.round((nowMs - Date.parse(at)) / 1000));
  return s < 120 ? `${s}s ago` : s < 7200 ? `${Math.round(s / 60)}m ago` : `${Math.round(s / 3600)}h ago`;
}

/** The table a person reads at a terminal. */
export function renderExecutors(r: { where: string; executors: ExecutorSeen[] }, nowMs = Date.now()): string {
  if (!r.executors.length) return `no executors on ${r.where}\n`;
  const rows = [
    ["NAME", "STATUS", "LOAD", "HEARTBEAT", "SANDBOX", "PROFILES", "HOST"],
    ...r.executors.map((e) => [
      e.name,
      e.status,
      `${e.load}/${e.capacity}`,
      ago(e.heartbeatAt, nowMs),
      e.sandbox,
      e.profiles.join(","),
      e.host,
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) => row.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd()).join("\n") + "\n";
}
