/**
 * Issue 25's acceptance: forty loops of mixed outcomes (pass, failed verify, stopped agent, discarded, killed
 * owner) against maxConcurrentRuns 4, in four lanes at once (each on its own repository, all sharing spot's
 * state). No loop is ever refused a slot, and at the end no run that is not working holds one: four new runs
 * are admitted at once. Before slots freed themselves, the fourth failed verify or stopped agent held the
 * last slot for ever.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type SpotEnv, spotEnv, writeEpisode, writeJson } from "../helpers.ts";
import { REPLAY } from "../agents/agent_helpers.ts";
import { holdsSlot } from "../../lifecycle/slots.ts";
import type { RunState } from "../../schemas/run_state.ts";
import { type Bench, bench, FIXED_ADD, hasEvent, spot, startSpot, waitFor } from "./helpers.ts";

const CAP = 4;
const LANES = 4;
const LOOPS = 40;
const OUTCOMES = ["pass", "failed verify", "stopped agent", "discarded", "killed owner"] as const;
type Outcome = typeof OUTCOMES[number];

/** A lane's contract also lets the worker write notes, so every passing loop has something to land. */
async function lane(env: SpotEnv, n: number): Promise<Bench> {
  const b = await bench(env, `lane-${n}`);
  const task = JSON.parse(await Deno.readTextFile(b.taskFile));
  await writeJson(b.taskFile, { ...task, allowedPaths: ["add.ts", "notes/**"] });
  return b;
}

async function prepared(env: SpotEnv, b: Bench, episode: string): Promise<string> {
  const r = await spot(env, b.repo, "prepare", "--task", b.taskFile, ...REPLAY, "--model", episode);
  assert.equal(r.code, 0, `a loop was refused: ${r.stderr}`);
  return String(r.json.runId);
}

async function loop(env: SpotEnv, b: Bench, i: number, outcome: Outcome): Promise<void> {
  const episode = join(env.dir, `loop-${i}.jsonl`);
  await writeEpisode(episode, [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "write", path: `notes/loop-${i}.md`, content: `loop ${i}\n` },
  ]);
  const run = (id: string) => spot(env, b.repo, "run", "--id", id);
  if (outcome === "pass") {
    const id = await prepared(env, b, episode);
    assert.equal((await run(id)).code, 0);
    const verify = await spot(env, b.repo, "verify", "--id", id);
    assert.equal(verify.json.passed, true, verify.stderr);
    const review = join(env.dir, `review-${i}.json`);
    await writeJson(review, {
      schemaVersion: 1,
      verdict: "approve",
      diffSha256: verify.json.diffSha256,
      findings: [],
      verificationGaps: [],
      summary: "ok",
    });
    assert.equal(
      (await spot(env, b.repo, "approve", "--id", id, "--review", review, "--message", `Loop ${i}`)).code,
      0,
    );
    assert.equal((await spot(env, b.repo, "integrate", "--id", id)).json.status, "integrated");
  } else if (outcome === "failed verify") {
    const id = await prepared(env, b, b.episodes.wrong);
    assert.equal((await run(id)).code, 0);
    assert.equal((await spot(env, b.repo, "verify", "--id", id)).json.passed, false);
  } else if (outcome === "discarded") {
    const id = await prepared(env, b, episode);
    assert.equal((await run(id)).code, 0);
    assert.equal((await spot(env, b.repo, "discard", "--id", id)).json.status, "discarded");
  } else if (outcome === "stopped agent") {
    const name = `loop-${i}`;
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
    await waitFor(`agent ${name}'s worker`, () => hasEvent(env, String(r.json.runId), "worker_tool_result"));
    assert.equal((await spot(env, b.repo, "agent", "stop", name)).json.runEnded, true);
  } else {
    const id = await prepared(env, b, b.episodes.slow);
    const owner = startSpot(env, b.repo, "run", "--id", id);
    await waitFor(`run ${id}'s worker`, () => hasEvent(env, id, "worker_tool_result"));
    Deno.kill(owner.pid(), "SIGKILL");
    await owner.done;
  }
}

async function allRuns(env: SpotEnv): Promise<RunState[]> {
  const out: RunState[] = [];
  for await (const e of Deno.readDir(join(env.stateDir, "runs"))) {
    out.push(JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", e.name, "state.json"))));
  }
  return out;
}

Deno.test(`${LOOPS} loops of mixed outcomes under maxConcurrentRuns ${CAP} end with no slot held by an idle run`, async () => {
  const env = await spotEnv({ maxConcurrentRuns: CAP });
  const benches = await Promise.all(Array.from({ length: LANES }, (_, n) => lane(env, n)));
  const seen = new Map<Outcome, number>();
  await Promise.all(benches.map(async (b, n) => {
    for (let i = n; i < LOOPS; i += LANES) {
      const outcome = OUTCOMES[(Math.floor(i / LANES) + n) % OUTCOMES.length];
      seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
      await loop(env, b, i, outcome);
    }
  }));
  assert.deepEqual(OUTCOMES.map((o) => seen.get(o)), OUTCOMES.map(() => LOOPS / OUTCOMES.length));
  // Every slot comes free: four new runs are admitted at once (this admission reclaims a killed owner's).
  const last = join(env.dir, "last.jsonl");
  await writeEpisode(last, [{ op: "say", text: "nothing" }]);
  const admitted = await Promise.all(
    benches.map((b) => spot(env, b.repo, "prepare", "--task", b.taskFile, ...REPLAY, "--model", last)),
  );
  for (const r of admitted) assert.equal(r.code, 0, r.stderr);
  const fresh = new Set(admitted.map((r) => String(r.json.runId)));
  const idleHolders = (await allRuns(env)).filter((s) => !fresh.has(s.runId) && holdsSlot(s));
  assert.deepEqual(idleHolders.map((s) => `${s.runId} ${s.status}`), []);
  await Deno.remove(env.dir, { recursive: true });
});
