/**
 * What a coordinator does with a task that a dead coordinator left `running` (a `kill -9`, a crash): decided
 * from the task's run alone, so that no worker is ever launched twice. A run that was never made, or made but
 * never started, is launched or run as if for the first time; a run whose worker's turn ended is judged from
 * what it left; a run whose turn was cut short is `uncertain`: the worker may have gone on writing, so the
 * task fails with that reason and is not launched again. A run whose turn is out on the fleet is followed again.
 */
import type { RunState } from "../schemas/run_state.ts";

export type Resume =
  | { mode: "launch" }
  | { mode: "run" }
  | { mode: "judge" }
  | { mode: "uncertain"; reason: string };

export function resumeOf(run: Pick<RunState, "status" | "worktreeReady" | "fleet"> | null): Resume {
  if (run === null) return { mode: "launch" };
  if (run.status === "prepared" && run.worktreeReady) return { mode: "run" };
  // Its turn runs on an executor, which goes on without the coordinator: the task is followed again.
  if (run.status === "running" && run.fleet?.role === "origin") return { mode: "run" };
  // Verifying: the turn ended (a builder's checks run again); past it, spot's verification is on record.
  if (["verifying", "selfReviewing", "reviewing"].includes(run.status)) return { mode: "judge" };
  const why = run.status === "running"
    ? "its worker was running when the coordinator stopped"
    : `its run was left ${run.status} when the coordinator stopped`;
  return { mode: "uncertain", reason: `uncertain: ${why}; it is not launched again` };
}
