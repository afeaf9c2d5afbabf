/**
 * Run slots free themselves (docs/slots.md), through the CLI: a failed verify gives its slot back at review and
 * `revise` takes one again under the cap; `spot discard` keeps the diff and frees the slot; a run whose owner
 * was killed is reclaimed by the next prepare and resumed by `recover`; and CONCURRENCY_LIMIT names each
 * holder with the command that frees it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spotEnv, writeJson } from "../helpers.ts";
import {
  bench,
  exists,
  extraWorktrees,
  hasEvent,
  prepareRun,
  sh,
  spot,
  startSpot,
  state,
  waitFor,
} from "./helpers.ts";

type Holder = { runId: string; status: string; next: string | null; free: string; working: boolean };
const errorOf = (r: { json: Record<string, unknown> }) =>
  r.json.error as { code: string; message: string; details: { holders: Holder[] } };

Deno.test("a failed verify frees its slot at review; revise takes one back under the cap, and the refusal names the holder", async () => {
  const env = await spotEnv({ maxConcurrentRuns: 1 });
  const b = await bench(env);
  const a = await prepareRun(env, b, b.episodes.wrong);
  assert.equal((await spot(env, b.repo, "run", "--id", a)).code, 0);
  const verify = await spot(env, b.repo, "verify", "--id", a);
  assert.equal(verify.json.passed, false, verify.stderr);
  assert.equal(verify.json.status, "reviewing");
  // The run waits for the parent's verdict: no worker runs for it, so it holds no slot.
  const other = await prepareRun(env, b, b.episodes.fix);

  const review = join(env.dir, "revise.json");
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "revise",
    diffSha256: verify.json.diffSha256,
    findings: [{
      priority: "P1",
      file: "add.ts",
      line: 2,
      problem: "multiplies",
      evidence: "add(2,3) is 6",
      requiredChange: "add",
    }],
    verificationGaps: [],
    summary: "wrong operator",
  });
  const refused = await spot(env, b.repo, "revise", "--id", a, "--review", review);
  assert.equal(refused.code, 5, refused.stderr);
  const error = errorOf(refused);
  assert.equal(error.code, "CONCURRENCY_LIMIT");
  assert.deepEqual(error.details.holders.map((h) => [h.runId, h.status, h.next, h.free, h.working]), [
    [other, "prepared", `spot run --id ${other}`, `spot discard --id ${other}`, false],
  ]);
  assert.match(
    error.message,
    new RegExp(`"${other}" \\(prepared since .*spot discard --id ${other} frees it`),
  );
  assert.equal((await state(env, a)).status, "reviewing", "a refused revise changes nothing");

  assert.equal((await spot(env, b.repo, "discard", "--id", other)).code, 0);
  const revise = await spot(env, b.repo, "revise", "--id", a, "--review", review);
  assert.equal(revise.code, 0, revise.stderr);
  assert.equal(revise.json.status, "verifying");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("spot discard keeps the worktree's diff, removes the worktree and branch, ends the run discarded and frees its slot", async () => {
  const env = await spotEnv({ maxConcurrentRuns: 1 });
  const b = await bench(env);
  const a = await prepareRun(env, b, b.episodes.fix);
  assert.equal((await spot(env, b.repo, "run", "--id", a)).code, 0);
  const before = await state(env, a);

  const busy = await spot(
    env,
    b.repo,
    "prepare",
    "--task",
    b.taskFile,
    "--profile",
    "replay",
    "--model",
    b.episodes.fix,
  );
  assert.equal(busy.code, 5, busy.stderr);
  assert.deepEqual(errorOf(busy).details.holders.map((h) => [h.runId, h.status, h.next, h.free]), [
    [a, "verifying", `spot verify --id ${a}`, `spot discard --id ${a}`],
  ]);

  const discard = await spot(env, b.repo, "discard", "--id", a);
  assert.equal(discard.code, 0, discard.stderr);
  assert.equal(discard.json.status, "discarded");
  assert.equal(discard.json.previousStatus, "verifying");
  assert.equal(discard.json.slotFreed, true);
  assert.equal(discard.json.worktreeRemoved, true);
  assert.equal(discard.json.branchRemoved, true);
  const patch = await Deno.readTextFile(String(discard.json.diffFile));
  assert.match(patch, /^\+ {2}return a \+ b;$/m);
  assert.equal(await exists(String(before.worktreePath)), false);
  assert.equal(await sh(b.repo, "git", "branch", "--list", String(before.workerBranch)), "");
  assert.deepEqual(await extraWorktrees(b.repo), []);
  // Nothing is lost: the saved diff applies to the source as it was.
  await sh(b.repo, "git", "apply", "--check", String(discard.json.diffFile));
  const after = await state(env, a);
  assert.equal(after.status, "discarded");
  assert.notEqual(after.cleanedAt, null);

  const again = await spot(env, b.repo, "discard", "--id", a);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.json.alreadyDiscarded, true);
  assert.match((await spot(env, b.repo, "list", "--status", "discarded")).stdout, new RegExp(a));
  // The slot is free: the next run is admitted.
  await prepareRun(env, b, b.episodes.fix);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a run whose spot run was killed is reclaimed by the next prepare, and recover resumes it with a slot", async () => {
  const env = await spotEnv({ maxConcurrentRuns: 1 });
  const b = await bench(env);
  const a = await prepareRun(env, b, b.episodes.slow);
  const run = startSpot(env, b.repo, "run", "--id", a);
  await waitFor("the worker's write", () => hasEvent(env, a, "worker_tool_result"));
  Deno.kill(run.pid(), "SIGKILL");
  await run.done;
  assert.equal((await state(env, a)).status, "running", "the kill left the run running");

  // The next admission sees nobody holds the run's lock: its owner is gone, and its slot is reclaimed.
  const next = await prepareRun(env, b, b.episodes.fix);
  const reclaimed = await state(env, a);
  assert.equal(reclaimed.status, "failed");
  const failure = reclaimed.failure as { code: string; details: { phase: string; reclaimedBy: string } };
  assert.equal(failure.code, "OWNER_GONE");
  assert.deepEqual([failure.details.phase, failure.details.reclaimedBy], ["running", next]);

  // Recovering takes a slot again: refused while the other run holds the only one.
  const full = await spot(env, b.repo, "recover", "--id", a);
  assert.equal(full.code, 5, full.stderr);
  assert.equal(errorOf(full).code, "CONCURRENCY_LIMIT");
  assert.equal((await spot(env, b.repo, "discard", "--id", next)).code, 0);
  const recover = await spot(env, b.repo, "recover", "--id", a);
  assert.equal(recover.code, 0, recover.stderr);
  assert.equal(recover.json.status, "verifying");
  assert.equal(recover.json.nextCommand, `spot verify --id ${a}`);
  const verify = await spot(env, b.repo, "verify", "--id", a);
  assert.equal(verify.json.passed, true, verify.stderr);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a run working under a live spot run is never reclaimed: the refusal says it is working", async () => {
  const env = await spotEnv({ maxConcurrentRuns: 1 });
  const b = await bench(env);
  const a = await prepareRun(env, b, b.episodes.slow);
  const run = startSpot(env, b.repo, "run", "--id", a);
  await waitFor("the worker's write", () => hasEvent(env, a, "worker_tool_result"));
  const busy = await spot(
    env,
    b.repo,
    "prepare",
    "--task",
    b.taskFile,
    "--profile",
    "replay",
    "--model",
    b.episodes.fix,
  );
  assert.equal(busy.code, 5, busy.stderr);
  const [holder] = errorOf(busy).details.holders;
  assert.deepEqual([holder.runId, holder.status, holder.working], [a, "running", true]);
  assert.match(holder.free, new RegExp(`pid ${run.pid()}`));
  assert.equal((await state(env, a)).status, "running");
  const discard = await spot(env, b.repo, "discard", "--id", a);
  assert.equal(discard.code, 5, "discard waits for the process working on the run");
  Deno.kill(run.pid(), "SIGKILL");
  await run.done;
  await Deno.remove(env.dir, { recursive: true });
});
