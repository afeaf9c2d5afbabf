/**
 * `parent-meter` (alias `codex-meter`): snapshot the delegating agent's
 * session usage before planning, for `prepare --usage-start`.
 */
import { dirname, resolve } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { takeParentSnapshot } from "../usage/parent/meter.ts";
import type { ParentSnapshot } from "../usage/parent/usage.ts";
import { detectCaller } from "../routing/caller.ts";
import type { SpotContext } from "../store/context.ts";
import { writeJsonAtomic } from "../store/files.ts";

export interface ParentMeterResult {
  agent: string;
  available: boolean;
  reason?: string;
  threadId?: string;
  sessionFile?: string;
  totalTokens?: number;
  output: string | null;
  snapshot: ParentSnapshot;
}

export async function parentMeter(
  ctx: SpotContext,
  options: { output?: string },
): Promise<ParentMeterResult> {
  const snapshot = await takeParentSnapshot(detectCaller(ctx.env), { env: ctx.env, now: ctx.now });
  let output: string | null = null;
  if (options.output) {
    output = resolve(ctx.cwd, options.output);
    try {
      await writeJsonAtomic(output, snapshot);
    } catch (error) {
      throw new SpotError(
        "CLI_USAGE",
        `Cannot write the usage snapshot "${output}": ${
          error instanceof Error ? error.message : String(error)
        }`,
        { details: { output, hint: `does ${dirname(output)} exist?` } },
      );
    }
  }
  return snapshot.available
    ? {
      agent: snapshot.agent,
      available: true,
      threadId: snapshot.threadId,
      sessionFile: snapshot.sessionFile,
      totalTokens: snapshot.totalTokens,
      output,
      snapshot,
    }
    : { agent: snapshot.agent, available: false, reason: snapshot.reason, output, snapshot };
}
