/**
 * A `kill -9` of `spot verify` while its checks run skips every `finally`: the pristine tree it made (a full
 * copy under the cache dir, registered as a worktree of the user's repository) was left for ever. It is on
 * record in the run's ledger before it exists, so recover, cleanup, the next verb on the run and gc remove it,
 * from the disk and from `git worktree list`, and say so.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type SpotEnv, spotEnv } from "../helpers.ts";
import {
  type Bench,
  bench,
  exists,
  extraWorktrees,
  FIXED_ADD,
  hasEvent,
  prepareRun,
  spot,
  startSpot,
  waitFor,
} from "./helpers.ts";

/** A run whose verify was killed inside its (slow) check; returns the pristine tree it left. */
async function killedVerify(env: SpotEnv, b: Bench): Promise<{ runId: string; tree: string }> {
  const runId = await prepareRun(env, b, b.episodes.slowCheck, b.slowTask);
  assert.equal((await spot(env, b.repo, "run", "--id", runId)).code, 0);
  const verify = startSpot(env, b.repo, "verify", "--id", runId);
  await waitFor("the check to start", () => hasEvent(env, runId, "step_start", /"step":"verify"/));
  Deno.kill(verify.pid(), "SIGKILL");
  await verify.done;
  const trees = await pristineTrees(env);
  assert.equal(trees.length, 1, "the killed verify left no pristine tree: nothing to test");
  assert.deepEqual(await pristineEntries(b.repo), trees, "the repository lists the pristine tree");
  return { runId, tree: trees[0] };
}

async function pristineTrees(env: SpotEnv): Promise<string[]> {
  const out: string[] = [];
  const dir = join(env.dir, "cache", "pristine");
  try {
    for await (const e of Deno.readDir(dir)) out.push(join(dir, e.name));
  } catch {
    // No pristine tree was ever made.
  }
  return out;
}

async function pristineEntries(repo: string): Promise<string[]> {
  return (await extraWorktrees(repo)).filter((p) => p.includes("/pristine/"));
}

async function assertGone(env: SpotEnv, b: Bench, tree: string): Promise<void> {
  assert.equal(await exists(tree), false, "the pristine tree is still on disk");
  assert.deepEqual(await pristineTrees(env), []);
  assert.deepEqual(await pristineEntries(b.repo), [], "git worktree list still names the pristine tree");
}

Deno.test("recover removes the pristine tree a killed verify left, and its entry in the user's repository", async () => {
  const env = await spotEnv();
  const b = await bench(env);
  const { runId, tree } = await killedVerify(env, b);
  const recover = await spot(env, b.repo, "recover", "--id", runId);
  assert.equal(recover.code, 0, recover.stderr);
  const reclaimed = recover.json.reclaimed as { kind: string; what: string; path?: string; repo?: string }[];
  const pristine = reclaimed.find((r) => r.what === "pristine tree");
  assert.deepEqual(pristine, { kind: "worktree", what: "pristine tree", path: tree, repo: b.repo });
  assert.ok(
    reclaimed.some((r) => r.kind === "process" && r.what === "verify step"),
    JSON.stringify(reclaimed),
  );
  await assertGone(env, b, tree);
  assert.ok(await hasEvent(env, runId, "note", /Reclaimed what a killed process left: .*pristine tree/));
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("the next verb on the run, cleanup, and gc each remove what a killed verify left", async () => {
  const env = await spotEnv();
  const b = await bench(env);
  // The next verb: discard takes the run's lock, and with it the leftovers.
  const first = await killedVerify(env, b);
  const discard = await spot(env, b.repo, "discard", "--id", first.runId);
  assert.equal(discard.code, 0, discard.stderr);
  assert.ok((discard.json.reclaimed as { what: string }[]).some((r) => r.what === "pristine tree"));
  await assertGone(env, b, first.tree);

  // gc, over every idle run: a preview says what it would remove and removes nothing.
  const second = await killedVerify(env, b);
  const preview = await spot(env, b.repo, "gc");
  assert.equal(preview.code, 0, preview.stderr);
  const listed = preview.json.reclaimed as { runId: string; what: string; path: string }[];
  assert.ok(listed.some((r) => r.runId === second.runId && r.path === second.tree), JSON.stringify(listed));
  assert.equal(await exists(second.tree), true, "a preview removed something");
  const gc = await spot(env, b.repo, "gc", "--confirm");
  assert.equal(gc.code, 0, gc.stderr);
  await assertGone(env, b, second.tree);

  // cleanup refuses a run that has not ended, but taking its lock already removed what the kill left.
  const third = await killedVerify(env, b);
  const cleanup = await spot(env, b.repo, "cleanup", "--id", third.runId);
  assert.equal(cleanup.code, 6, cleanup.stderr);
  assert.equal(
    (cleanup.json.error as { details: { nextCommand: string } }).details.nextCommand,
    `spot discard --id ${third.runId}`,
  );
  await assertGone(env, b, third.tree);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("verify checks the pristine tree out while it scans, and removes it when the gates refuse the delta", async () => {
  const env = await spotEnv();
  const b = await bench(env);
  // Out of the contract's scope (allowedPaths: add.ts): the scan refuses it after git checked the tree out.
  const outOfScope = join(b.repo, "..", "out-of-scope.jsonl");
  await Deno.writeTextFile(
    outOfScope,
    [{ op: "write", path: "add.ts", content: FIXED_ADD }, { op: "write", path: "notes.md", content: "x\n" }]
      .map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  const runId = await prepareRun(env, b, outOfScope);
  assert.equal((await spot(env, b.repo, "run", "--id", runId)).code, 0);
  const verify = await spot(env, b.repo, "verify", "--id", runId);
  assert.equal((verify.json.error as { code: string } | undefined)?.code, "SECURITY_BLOCKED", verify.stderr);
  // The checkout happened (its folder was made), and what it made is gone.
  assert.equal(await exists(join(env.dir, "cache", "pristine")), true, "no pristine tree was checked out");
  assert.deepEqual(await pristineTrees(env), [], "the tree checked out for refused checks is still on disk");
  assert.deepEqual(await pristineEntries(b.repo), [], "git worktree list still names it");
  assert.equal(await hasEvent(env, runId, "step_start", /"step":"verify"/), false, "a check ran");
  await Deno.remove(env.dir, { recursive: true });
});
