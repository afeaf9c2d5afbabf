import assert from "node:assert/strict";
import { isSpotError } from "../errors.ts";
import { RUN_STATUSES, TERMINAL } from "../schemas/constants.ts";
import type { RunState, Status } from "../schemas/run_state.ts";
import { requireStatus, transition } from "./state_table.ts";
import { movesOn, nextCommand } from "./next_command.ts";

const state = (status: Status) => ({ runId: "run-next-1", status }) as RunState;

/** The details of the STATE_INVALID `fn` throws. */
function refusal(fn: () => unknown): Record<string, unknown> {
  try {
    fn();
  } catch (e) {
    assert.ok(isSpotError(e, "STATE_INVALID"), String(e));
    return e.details;
  }
  throw new Error("expected STATE_INVALID");
}

Deno.test("requireStatus() gives every wrong-phase refusal of a live run the command that moves it on", () => {
  for (const status of RUN_STATUSES.filter((s) => !TERMINAL.has(s))) {
    const details = refusal(() =>
      requireStatus(state(status), status === "committed" ? ["prepared"] : ["committed"], "x")
    );
    assert.equal(details.nextCommand, movesOn(status, "run-next-1"), status);
    assert.match(String(details.nextCommand), /^spot [a-z-]+ --id run-next-1/, status);
  }
});

Deno.test("a wrong-phase refusal names the loop's next verb; a run left running or revising goes to recover", () => {
  const next = (s: Status) => refusal(() => requireStatus(state(s), ["committed"], "integrate")).nextCommand;
  assert.equal(next("prepared"), "spot run --id run-next-1");
  assert.equal(next("verifying"), "spot verify --id run-next-1");
  assert.equal(next("selfReviewing"), "spot self-review --id run-next-1");
  assert.match(String(next("reviewing")), /^spot approve --id run-next-1 .*spot revise/);
  assert.equal(next("running"), "spot recover --id run-next-1");
  assert.equal(next("revising"), "spot recover --id run-next-1");
  assert.equal(
    refusal(() => requireStatus(state("prepared"), ["verifying"], "verify")).nextCommand,
    nextCommand("prepared", "run-next-1"),
  );
});

Deno.test("transition() refused from a live status carries nextCommand; from an ended one it names none", () => {
  assert.equal(
    refusal(() => transition(state("prepared"), "approved", "r", "t")).nextCommand,
    "spot run --id run-next-1",
  );
  assert.equal(refusal(() => transition(state("integrated"), "running", "r", "t")).nextCommand, undefined);
});

Deno.test("nextCommand() sends a run whose turn went to the fleet there again, and only its run step", () => {
  assert.equal(nextCommand("prepared", "r-1", { fleet: true }), "spot run --id r-1 --on fleet");
  assert.equal(nextCommand("prepared", "r-1"), "spot run --id r-1");
  assert.equal(nextCommand("verifying", "r-1", { fleet: true }), "spot verify --id r-1");
});
