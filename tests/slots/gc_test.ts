/**
 * `spot gc` over every run: a preview first (nothing removed), each kept run with its reason, `--older-than`
 * as the window; with `--confirm` the ended runs lose their worktree and branch, their diff saved first.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spotEnv, writeEpisode, writeJson } from "../helpers.ts";
import { bench, exists, prepareRun, sh, spot, state } from "./helpers.ts";

type Row = { runId: string; status: string; reason?: string; nextCommand?: string };

Deno.test("spot gc previews, keeps what must stay with the reason, and collects ended runs past the window", async () => {
  const env = await spotEnv({ maxConcurrentRuns: 8 });
  const b = await bench(env);
  // Integrated (its report not written yet: gc writes it).
  const landed = await prepareRun(env, b, b.episodes.fix);
  assert.equal((await spot(env, b.repo, "run", "--id", landed)).code, 0);
  const verified = await spot(env, b.repo, "verify", "--id", landed);
  const review = join(env.dir, "review.json");
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: verified.json.diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "ok",
  });
  assert.equal(
    (await spot(env, b.repo, "approve", "--id", landed, "--review", review, "--message", "Fix")).code,
    0,
  );
  assert.equal((await spot(env, b.repo, "integrate", "--id", landed)).json.status, "integrated");
  // Failed, with work in its worktree.
  const failing = join(env.dir, "fails.jsonl");
  await writeEpisode(failing, [
    { op: "write", path: "add.ts", content: "// half done\n" },
    { op: "fail", message: "provider said no" },
  ]);
  const failed = await prepareRun(env, b, failing);
  assert.notEqual((await spot(env, b.repo, "run", "--id", failed)).code, 0);
  assert.equal((await state(env, failed)).status, "failed");
  // Not ended: prepared, never run.
  const waiting = await prepareRun(env, b, b.episodes.fix);
  // Discarded: nothing left to collect.
  const dropped = await prepareRun(env, b, b.episodes.fix);
  assert.equal((await spot(env, b.repo, "discard", "--id", dropped)).code, 0);

  const week = await spot(env, b.repo, "gc");
  assert.equal(week.code, 0, week.stderr);
  assert.equal(week.json.confirm, false);
  assert.deepEqual(week.json.collected, []);
  const reasons = new Map((week.json.retained as Row[]).map((r) => [r.runId, r]));
  assert.match(reasons.get(landed)!.reason!, /less than 7d ago/);
  assert.match(reasons.get(failed)!.reason!, /less than 7d ago/);
  assert.equal(reasons.get(waiting)!.reason, "it is prepared, not ended");
  assert.equal(reasons.get(waiting)!.nextCommand, `spot discard --id ${waiting}`);
  assert.equal(week.json.alreadyClean, 1);

  const preview = await spot(env, b.repo, "gc", "--older-than", "0");
  assert.deepEqual((preview.json.wouldCollect as Row[]).map((r) => r.runId).sort(), [failed, landed].sort());
  assert.deepEqual(preview.json.collected, [], "a preview collected nothing, and says so");
  assert.equal(preview.json.nextCommand, "spot gc --older-than 0 --confirm");
  const landedState = await state(env, landed);
  const failedState = await state(env, failed);
  assert.equal(await exists(String(failedState.worktreePath)), true, "a preview removed a worktree");

  const gc = await spot(env, b.repo, "gc", "--older-than", "0", "--confirm");
  assert.equal(gc.code, 0, gc.stderr);
  assert.deepEqual(
    (gc.json.collected as Row[]).map((r) => r.runId).sort(),
    [failed, landed].sort(),
    gc.stdout,
  );
  for (const s of [landedState, failedState]) {
    assert.equal(await exists(String(s.worktreePath)), false);
    assert.equal(await sh(b.repo, "git", "branch", "--list", String(s.workerBranch)), "");
  }
  // Nothing lost: the failed run's half-done work is in its diff; the landed run got its report.
  assert.match(await Deno.readTextFile(join(env.stateDir, "runs", failed, "diff.patch")), /\+\/\/ half done/);
  assert.equal(await exists(join(env.stateDir, "runs", landed, "report.md")), true);
  assert.notEqual((await state(env, failed)).cleanedAt, null);
  // The run that has not ended is untouched, and its slot still counts.
  assert.equal(await exists(String((await state(env, waiting)).worktreePath)), true);

  const again = await spot(env, b.repo, "gc", "--older-than", "0");
  assert.deepEqual(again.json.wouldCollect, []);
  assert.equal(again.json.alreadyClean, 3);
  const bad = await spot(env, b.repo, "gc", "--older-than", "7x");
  assert.equal(bad.code, 2);
  assert.equal((bad.json.error as { code: string }).code, "CLI_USAGE");
  await Deno.remove(env.dir, { recursive: true });
});
