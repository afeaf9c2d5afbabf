/** The adapter a run names and the worker binary it launches. */
import { loadAdapter } from "../adapters/load.ts";
import type { WorkerAdapter } from "../adapters/types.ts";
import { SpotError } from "../errors.ts";
import { locateBinary } from "../registry/locate.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";

export async function resolveAdapter(state: RunState): Promise<WorkerAdapter> {
  const adapter = await loadAdapter(state.adapter);
  if (!adapter) {
    throw new SpotError(
      "PROFILE_NOT_FOUND",
      `Cannot run "${state.runId}": no adapter named "${state.adapter}"`,
    );
  }
  return adapter;
}

/**
 * The worker binary: profile, then PI_WORKER_<ADAPTER>_BIN, then the adapter default on PATH, then
 * the adapter's candidate dirs under HOME (opencode's installer puts it in ~/.opencode/bin).
 */
export function resolveWorkerBinary(
  ctx: SpotContext,
  state: RunState,
  adapter: WorkerAdapter,
): string | null {
  const profile = ctx.config.profiles[state.profile];
  return locateBinary(state.adapter, adapter, { env: ctx.env, profileBinary: profile?.binary }).binary;
}
