/** `spot detect`: the registry of worker CLIs on this machine, from a 10-minute cache when fresh. */
import { detect, registryFile } from "../registry/detect.ts";
import type { Registry } from "../registry/types.ts";
import type { SpotContext } from "../store/context.ts";

export async function detectWorkers(
  ctx: SpotContext,
  options: { refresh?: boolean } = {},
): Promise<{ cached: boolean; registryFile: string; registry: Registry }> {
  const extraAdapters = Object.values(ctx.config.profiles).map((p) => p.adapter);
  const { registry, cached } = await detect({
    cacheRoot: ctx.paths.cacheRoot,
    env: ctx.env,
    extraAdapters,
    refresh: options.refresh,
  });
  return { cached, registryFile: registryFile(ctx.paths.cacheRoot), registry };
}
