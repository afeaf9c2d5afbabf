import assert from "node:assert/strict";
import { fixtureState } from "../tests/fixture_runs.ts";
import { endedHint } from "./ended.ts";
import { requireStatus } from "./state_table.ts";
import { isSpotError } from "../errors.ts";

Deno.test("endedHint() is null for a run that has not ended, and always offers inspect for one that has", () => {
  assert.equal(endedHint(fixtureState("r", { status: "reviewing" })), null);
  for (const status of ["integrated", "succeeded", "failed", "blocked", "discarded"] as const) {
    const hint = endedHint(fixtureState("r", { status }))!;
    assert.equal(hint.commands[0], "spot inspect --id r", status);
    assert.ok(
      !hint.commands.some((c) => /verify|approve|revise|integrate|self-review|spot run/.test(c)),
      status,
    );
  }
});

Deno.test("endedHint() offers recover only for a failure that can pass, and no cleanup once cleaned", () => {
  const wall = fixtureState("r", {
    status: "failed",
    failure: { code: "quota", message: "quota" } as never,
  });
  assert.ok(endedHint(wall)!.commands.includes("spot recover --id r"));
  const auth = fixtureState("r", { status: "failed", failure: { code: "auth", message: "401" } as never });
  assert.ok(!endedHint(auth)!.commands.includes("spot recover --id r"));
  const cleaned = fixtureState("r", { status: "integrated", cleanedAt: "2026-01-01T00:00:00.000Z" });
  assert.ok(!endedHint(cleaned)!.commands.some((c) => c.startsWith("spot cleanup")));
});

Deno.test("requireStatus() on an ended run says how it ended, with no next step of the loop", () => {
  try {
    requireStatus(fixtureState("r", { status: "discarded" }), ["verifying"], "verify");
    assert.fail("expected a throw");
  } catch (e) {
    assert.ok(isSpotError(e, "STATE_INVALID"));
    assert.match(e.message, /^Cannot verify run "r": it was discarded; /);
    assert.equal((e.details as Record<string, unknown>).nextCommand, undefined);
    assert.deepEqual((e.details as { commands: string[] }).commands, ["spot inspect --id r", "spot gc"]);
  }
});
