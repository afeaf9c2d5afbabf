/**
 * Whether a run's work reached the user, the one condition under which the parent was spared doing it. A
 * blocked, failed or discarded run left the task with the parent, and a run still under way has spared it
 * nothing yet: neither counts its worker's tokens as parent tokens avoided, however many it used.
 */
import type { Status } from "../schemas/run_state.ts";

export type Landing =
  | { landed: true; ended: true; reason: null }
  | { landed: false; ended: boolean; reason: string };

/** Did not land, for good: the parent still has the task to do. */
const NOT_LANDED: ReadonlySet<string> = new Set(["blocked", "failed", "discarded"]);

export function landingOf(status: Status | string): Landing {
  // `succeeded` is a turn with nothing to land (a read-only task): its answer is what it delivered.
  if (status === "integrated" || status === "succeeded") return { landed: true, ended: true, reason: null };
  if (NOT_LANDED.has(status)) {
    return {
      landed: false,
      ended: true,
      reason: `none counted: the work did not land (the run is ${status}), so the parent still has it to do`,
    };
  }
  return {
    landed: false,
    ended: false,
    reason: `none counted yet: the work has not landed (the run is ${status}); it counts once integrated`,
  };
}
