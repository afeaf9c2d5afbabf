/**
 * Agents give their run slots back (docs/slots.md): `agent stop` ends the turn it cut short, `agent discard`
 * drops the run, and a brief's turn ends its run `succeeded`; each with a cap of one slot, so the next
 * prepare is the proof.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type SpotEnv, spotEnv } from "../helpers.ts";
import { REPLAY } from "../agents/agent_helpers.ts";
import { type Bench, bench, exists, hasEvent, prepareRun, spot, state, waitFor } from "./helpers.ts";

async function startMidTurn(env: SpotEnv, b: Bench, name: string): Promise<string> {
  const r = await spot(
    env,
    b.repo,
    "agent",
    "start",
    name,
    "--task",
    b.taskFile,
    ...REPLAY,
    "--model",
    b.episodes.slow,
  );
  assert.equal(r.code, 0, r.stderr);
  const runId = String(r.json.runId);
  await waitFor("the worker's write", () => hasEvent(env, runId, "worker_tool_result"));
  return runId;
}

Deno.test("agent stop ends the run it cut short (AGENT_STOPPED) and frees its slot; agent discard drops the run", async () => {
  const env = await spotEnv({ maxConcurrentRuns: 1 });
  const b = await bench(env);
  const stopped = await startMidTurn(env, b, "slow");
  const stop = await spot(env, b.repo, "agent", "stop", "slow");
  assert.equal(stop.code, 0, stop.stderr);
  assert.deepEqual([stop.json.runStatus, stop.json.runEnded], ["failed", true]);
  const after = await state(env, stopped);
  assert.equal(after.status, "failed");
  assert.equal((after.failure as { code: string }).code, "AGENT_STOPPED");
  assert.equal(await exists(String(after.worktreePath)), true, "stop keeps the worktree for a look");
  // The slot is free at once: nothing waits for a later admission to notice.
  const next = await prepareRun(env, b, b.episodes.fix);
  assert.equal((await spot(env, b.repo, "discard", "--id", next)).code, 0);

  const dropped = await startMidTurn(env, b, "drop");
  const discard = await spot(env, b.repo, "agent", "discard", "drop");
  assert.equal(discard.code, 0, discard.stderr);
  assert.equal(discard.json.unregistered, true);
  assert.equal(discard.json.runStatus, "discarded");
  const d = discard.json.discarded as { diffFile: string; previousStatus: string; worktreeRemoved: boolean };
  assert.equal(d.previousStatus, "failed", "the stop ended the turn first");
  assert.equal(d.worktreeRemoved, true);
  assert.match(await Deno.readTextFile(d.diffFile), /a \+ b/);
  assert.equal((await state(env, dropped)).status, "discarded");
  assert.equal((await spot(env, b.repo, "agent", "ls")).stdout.trim(), "no agents");
  await prepareRun(env, b, b.episodes.fix);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a brief's turn ends its run succeeded, never holding a slot or showing as integrated", async () => {
  const env = await spotEnv({ maxConcurrentRuns: 1 });
  const b = await bench(env);
  const episode = join(env.dir, "answer.jsonl");
  await Deno.writeTextFile(
    episode,
    JSON.stringify({ op: "say", text: "add() subtracts; it should add." }) + "\n",
  );
  const start = await spot(
    env,
    b.repo,
    "agent",
    "start",
    "scout",
    "--brief",
    "Find the bug in add.ts and say what it is",
    "--cwd",
    b.repo,
    ...REPLAY,
    "--model",
    episode,
  );
  assert.equal(start.code, 0, start.stderr);
  const runId = String(start.json.runId);
  await waitFor(
    "the brief's run to end",
    async () => (await state(env, runId).catch(() => ({ status: null }))).status === "succeeded",
  );
  const poll = await spot(env, b.repo, "agent", "poll", "scout");
  assert.match(poll.stdout, /^STATUS=OK /, poll.stdout);
  assert.equal((await spot(env, b.repo, "list", "--status", "integrated")).stdout.includes(runId), false);
  // The only slot is free: a brief that answered holds nothing.
  await prepareRun(env, b, b.episodes.fix);
  await Deno.remove(env.dir, { recursive: true });
});
