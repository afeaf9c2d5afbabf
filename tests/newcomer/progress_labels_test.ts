/**
 * The progress line says what is happening now: during verify's checks, the check that runs (its number and
 * its argv's short form), not "scanning the diff" for the whole run; during integrate, its phases and then
 * the check on the landed commit (or, when what lands is what verify checked, that it lands it as it is),
 * not "starting" until the end.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, type SpotEnv, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario, prepareScenario, type Scenario } from "../scenario.ts";
import { runUnderPty } from "../output/pty.ts";
import { lengthenStoredChecks } from "../landing/helpers.ts";

/** Every text the progress line showed, in order, without the clock. */
function labels(screen: string): string[] {
  // deno-lint-ignore no-control-regex
  const shown = screen.split(/\r|\x1b\[K/).map((s) => s.replace(/ \(\d+\.\ds\)$/, "").trim());
  return [...new Set(shown.filter((s) => s.startsWith("[spot] ")))];
}

/** A run of the demo scenario taken through run, verify (under a terminal) and approve. */
async function approvedRun(env: SpotEnv, sc: Scenario): Promise<{ id: string; verifyScreen: string }> {
  const id = await prepareScenario(env, sc, "--sandbox", "none");
  assert.equal((await spot(env, sc.repo, "run", "--id", id)).code, 0);
  const verify = await runUnderPty(env, ["verify", "--id", id], { cwd: sc.repo });
  assert.equal(verify.code, 0, verify.output);
  // Verify went on to self-review (or straight to review when it is off); either way the parent may approve.
  await spot(env, sc.repo, "self-review", "--id", id);
  const verification = JSON.parse(
    await Deno.readTextFile(join(env.stateDir, "runs", id, "verification.json")),
  );
  const review = join(env.dir, `review-${id}.json`);
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: verification.diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "fine",
  });
  const approved = await spot(
    env,
    sc.repo,
    "approve",
    "--id",
    id,
    "--review",
    review,
    "--message",
    "Fix add",
  );
  assert.equal(approved.code, 0, approved.stderr);
  return { id, verifyScreen: verify.output };
}

Deno.test("verify and integrate name the check that runs and their own phases on the progress line", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const { id, verifyScreen } = await approvedRun(env, sc);

  const seen = labels(verifyScreen);
  const check = `[spot] verify ${id}: check 1/1: deno test --no-config --no-lock add_test.ts`;
  assert.ok(seen.includes(check), seen.join("\n"));
  // The order a person sees: the scan, the pristine tree, the check, the end.
  const order = [
    `[spot] verify ${id}: scanning the diff`,
    `[spot] verify ${id}: building a pristine tree for the checks`,
    check,
    `[spot] verify ${id}: 1/1 checks ran, 1 passed`,
  ].map((l) => seen.indexOf(l));
  assert.ok(order.every((i, n) => i >= 0 && (n === 0 || i > order[n - 1])), seen.join("\n"));

  // The parent's contract changed after verify (a longer timeout): integrate checks the landed commit again.
  await lengthenStoredChecks(join(env.stateDir, "runs", id));
  const integrate = await runUnderPty(env, ["integrate", "--id", id], { cwd: sc.repo });
  assert.equal(integrate.code, 0, integrate.output);
  const landed = labels(integrate.output);
  assert.ok(
    landed.some((l) =>
      l === `[spot] integrate ${id}: check 1/1: deno test --no-config --no-lock add_test.ts`
    ),
    landed.join("\n"),
  );
  assert.ok(!landed.some((l) => l.startsWith(`[spot] verify `)), landed.join("\n"));
  assert.ok(!landed.includes("[spot] starting"), landed.join("\n"));
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("integrate says on the progress line that it lands the tree verify checked as it is", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const { id } = await approvedRun(env, sc);
  const integrate = await runUnderPty(env, ["integrate", "--id", id], { cwd: sc.repo });
  assert.equal(integrate.code, 0, integrate.output);
  const landed = labels(integrate.output);
  assert.ok(
    landed.includes(
      `[spot] integrate ${id}: the approved commit is the tree verify checked; landing it as it is`,
    ),
    landed.join("\n"),
  );
  assert.ok(!landed.some((l) => l.includes(": check 1/1")), landed.join("\n"));
  await Deno.remove(env.dir, { recursive: true });
});
