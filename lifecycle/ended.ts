/**
 * What a person can still do with a run that has ended, for the errors that refuse a verb on it: no verb of
 * the loop can move an ended run on, so an error about one never names the loop's next step, it says how the
 * run ended and which commands still work on it (inspect always does). Pure.
 */
import type { RunState } from "../schemas/run_state.ts";
import { TERMINAL } from "../schemas/constants.ts";

/** Failures a run can come back from once the provider does: recover resumes them. */
export const RESUMABLE_FAILURES: ReadonlySet<string> = new Set([
  "quota",
  "quota_window",
  "rate_limit",
  "timeout",
  "no_progress",
  "cli_crash",
]);

export interface EndedHint {
  /** How it ended, in a few words: `it ended blocked (SECURITY_BLOCKED)`. */
  said: string;
  /** What can still be done, one sentence. */
  hint: string;
  /** Commands that work on it now, the first the one to run to see why. */
  commands: string[];
}

/** Null for a run that has not ended. */
export function endedHint(state: RunState): EndedHint | null {
  if (!TERMINAL.has(state.status)) return null;
  const id = state.runId;
  const inspect = `spot inspect --id ${id}`;
  const cleaned = state.cleanedAt !== null && state.cleanedAt !== undefined;
  const cleanup = cleaned ? [] : [`spot cleanup --id ${id}`];
  const code = state.failure?.code;
  switch (state.status) {
    case "integrated":
      return {
        said: `it is integrated${
          state.integratedCommit ? ` (landed as ${state.integratedCommit.slice(0, 12)})` : ""
        }`,
        hint: `its work is on ${state.sourceBranch ?? "the source branch"}; ${
          cleaned ? "only its report and record are left" : "what is left is its report and its cleanup"
        }`,
        commands: [inspect, `spot report --id ${id}`, ...cleanup],
      };
    case "succeeded":
      return {
        said: "it succeeded (a read-only turn: its answer is its result, nothing lands)",
        hint: "its answer is in its record",
        commands: [inspect, ...cleanup],
      };
    case "discarded":
      return {
        said: "it was discarded",
        hint: "nothing more can be done with it; its diff is kept in the run directory's diff.patch",
        commands: [inspect, "spot gc"],
      };
    default: {
      const why = code ? ` (${code})` : "";
      if (state.status === "failed" && code && RESUMABLE_FAILURES.has(code)) {
        return {
          said: `it ended failed${why}`,
          hint: "the failure can pass: spot recover resumes it once the provider answers again",
          commands: [inspect, `spot recover --id ${id}`],
        };
      }
      return {
        said: `it ended ${state.status}${why}`,
        hint: `nothing more can be done with it; its work stays on branch ${state.workerBranch} ` +
          "until spot discard (its diff saved) or spot gc removes it",
        commands: [inspect, `spot discard --id ${id}`, "spot gc"],
      };
    }
  }
}
