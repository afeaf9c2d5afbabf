/**
 * Where a task's worker turn runs. By default here, in the coordinator's process, as `spot run` would. A job whose
 * queue is a fleet (docs/fleet.md) gets a placement from the command that starts its coordinator: the turn (with
 * the result's repair turn, in the worker's session) and, for a builder, spot's verification run on an executor,
 * and the run comes back where the executor's run ended. Everything else about the task (its run prepared here,
 * ownership, the result, the verified commit, integration) is judged here either way.
 */
import type { SpotContext } from "../../store/context.ts";
import type { RunOptions } from "../../verbs/run.ts";

export interface PlacedTurn {
  /** The turn as `runWorker` takes it; its attachments (files in the run dir) travel with it. */
  turn: Pick<RunOptions, "prompt" | "readOnly" | "budget" | "web" | "attachments">;
  /** Run `verify` after the turn (a builder). */
  verify: boolean;
  /** How the executor reads the result, to repair it where the worker's session lives. */
  jobResult: { tasks: unknown[]; task: string; bound?: Record<string, string> };
  job: { jobId: string; task: string };
}

export interface TaskPlacement {
  /**
   * Does the turn elsewhere and takes the run back; throws as `runWorker` does when the turn itself failed. A run
   * left `running` on the fleet by a coordinator that died is followed again, never sent twice.
   */
  turn(ctx: SpotContext, runId: string, placed: PlacedTurn): Promise<void>;
  close(): Promise<void>;
}
