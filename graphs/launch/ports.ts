/**
 * Each task of a job gets a block of TCP ports of its own and a compose project name of its own, so parallel
 * builders' dev servers and containers do not collide: `SPOT_PORT_BASE` (also `PORT`), `SPOT_PORT_COUNT` and
 * `COMPOSE_PROJECT_NAME` reach its worker and its checks. A block is chosen from the job and task ids (stable
 * across a resume), skipping the blocks the job's running tasks hold and any port something on this machine
 * already listens on (probed on 127.0.0.1).
 */
import { sha256Hex } from "../../git/hash.ts";

export const PORT_BLOCK = 10;
const FIRST_PORT = 20_000;
const BLOCKS = 4_000;
/** Blocks tried before giving up on a free one (the task then runs without a block). */
const PROBES = 64;

export interface PortBlock {
  base: number;
  count: number;
}

/** The names and values a task's worker and checks get. */
export function workspaceEnv(jobId: string, taskId: string, ports: PortBlock | null): Record<string, string> {
  const compose = `spot-${jobId}-${taskId}`.toLowerCase().replace(/[^a-z0-9_-]/g, "-");
  const env: Record<string, string> = { COMPOSE_PROJECT_NAME: compose };
  if (ports) {
    env.SPOT_PORT_BASE = String(ports.base);
    env.SPOT_PORT_COUNT = String(ports.count);
    env.PORT = String(ports.base);
  }
  return env;
}

function free(port: number): boolean {
  try {
    Deno.listen({ hostname: "127.0.0.1", port }).close();
    return true;
  } catch {
    return false;
  }
}

/** A block no running task of the job holds and nothing listens in; null when none was found. */
export async function allocatePorts(
  jobId: string,
  taskId: string,
  held: readonly number[],
): Promise<PortBlock | null> {
  const start = parseInt((await sha256Hex(`${jobId}/${taskId}`)).slice(0, 8), 16) % BLOCKS;
  for (let i = 0; i < PROBES; i++) {
    const base = FIRST_PORT + ((start + i) % BLOCKS) * PORT_BLOCK;
    if (held.includes(base)) continue;
    let ok = true;
    for (let p = base; p < base + PORT_BLOCK && ok; p++) ok = free(p);
    if (ok) return { base, count: PORT_BLOCK };
  }
  return null;
}
