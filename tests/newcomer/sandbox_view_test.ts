/**
 * `spot sandbox` says which sandbox a run would get here, why, and what it would enforce and not: the same
 * lists a run then records (a newcomer saw `enforced: []` and `notEnforced: []` and no reason).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv } from "../helpers.ts";
import { demoScenario, prepareScenario } from "../scenario.ts";

/** A worker's network depends on its provider: the replay worker needs none, the preview assumes one. */
const notNet = (list: string[]) =>
  list.filter((e) => !e.startsWith("net:")).map((e) =>
    e.replace(/^tmpfs:\S*\/homes\/[^=]+=/, "tmpfs:<home>=")
  );

Deno.test("spot sandbox gives its reason and the enforced lists a run prepared here records", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const r = await spot(env, sc.repo, "sandbox");
  if (r.code === 4) {
    // No OS sandbox on this machine: the refusal says why and how to opt out, as prepare's would.
    assert.match(String((r.json.error as { message: string }).message), /to fix:/);
    return;
  }
  assert.equal(r.code, 0, r.stderr);
  const shown = r.json as {
    backend: string;
    reason: string;
    enforced: string[];
    notEnforced: string[];
    steps: Record<"worker" | "check", { enforced: string[]; notEnforced: string[] }>;
  };
  assert.match(shown.reason, /^"auto" from the config: /);
  assert.ok(shown.enforced.includes("fs:write-worktree-only"), shown.enforced.join());
  assert.ok(shown.steps.check.enforced.includes("net:none"));
  assert.ok(shown.steps.worker.enforced.includes("net:provider-forwarder-only"));

  const id = await prepareScenario(env, sc);
  assert.equal((await spot(env, sc.repo, "run", "--id", id)).code, 0);
  assert.equal((await spot(env, sc.repo, "verify", "--id", id)).code, 0);
  const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "state.json")));
  const recorded = state.sandboxDetails;
  assert.equal(recorded.backend, shown.backend);
  assert.deepEqual(recorded.steps.check.enforced, shown.steps.check.enforced);
  assert.deepEqual(recorded.steps.check.notEnforced, shown.steps.check.notEnforced);
  assert.deepEqual(notNet(recorded.steps.worker.enforced), notNet(shown.steps.worker.enforced));
  assert.deepEqual(recorded.notEnforced, shown.notEnforced);

  const none = await spot(env, sc.repo, "sandbox", "--sandbox", "none");
  assert.equal(none.json.optedOut, true);
  assert.match(String(none.json.reason), /^"none" from the --sandbox flag: no OS sandbox/);
  assert.ok((none.json.notEnforced as string[]).some((n) => n.startsWith("network:")));
  await Deno.remove(env.dir, { recursive: true });
});
