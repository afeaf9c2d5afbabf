/**
 * doctor's line on the queue, when one is configured (docs/fleet.md): the server answers with JetStream on, and
 * how many executors are alive and what they serve. Without a queue (`local`) doctor says nothing of it.
 */
import { openQueue } from "../queue/open.ts";
import type { SpotContext } from "../store/context.ts";
import type { Check } from "./check.ts";

export async function queueCheck(ctx: SpotContext, profile: string): Promise<Check | null> {
  const config = ctx.config.queue;
  if (config.backend !== "nats") return null;
  try {
    const queue = await openQueue(config, { client: "spot doctor", doing: "check the queue" });
    try {
      const alive = (await queue.executors.list()).filter((e) =>
        e.status === "alive" || e.status === "draining"
      );
      const serving = alive.filter((e) => e.profiles.includes(profile));
      return {
        name: "queue",
        ok: true,
        warn: serving.length === 0,
        detail:
          `${queue.where}: JetStream on; ${alive.length} executor(s) alive, ${serving.length} serving ${profile}`,
        ...(serving.length === 0 ? { fix: `start one where ${profile} runs: spot executor join` } : {}),
      };
    } finally {
      await queue.close();
    }
  } catch (error) {
    const e = error as Error & { details?: { fix?: string } };
    return { name: "queue", ok: false, detail: e.message, fix: e.details?.fix ?? "check queue.url" };
  }
}
