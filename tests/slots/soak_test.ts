/**
 * Issue 31's soak, bounded: four lanes at once, each on its own repository, each landing rounds through the
 * whole loop while a seeded random choice `kill -9`s `spot run`, `spot verify` or `spot integrate` at a random
 * moment; each kill is followed by `spot recover` and the loop goes on from where recover says. Then the
 * invariants: every state file reads, the index agrees with the run directories, every round landed exactly
 * once, no checkout is dirty and no lock is held, nothing is left under the cache dir, and no repository's
 * `git worktree list` names anything but its own checkout. Replay a failure with SPOT_SOAK_SEED=<seed>.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type SpotEnv, spotEnv, writeEpisode, writeJson } from "../helpers.ts";
import { REPLAY } from "../agents/agent_helpers.ts";
import { probeRunLock } from "../../store/lock.ts";
import { type Bench, bench, FIXED_ADD, hasEvent, sh, spot, startSpot, waitFor } from "./helpers.ts";

const SEED = Number(Deno.env.get("SPOT_SOAK_SEED") ?? 31);
const LANES = 4;
const ROUNDS = 3;
/** Each verb a round runs may be killed: this often, after up to this long. */
const KILL_CHANCE = 0.5;
const KILL_WITHIN_MS = 2_500;
/** Kills a round may take before it has to get through (a bound on the soak, not on spot). */
const MAX_KILLS_PER_ROUND = 3;

/** mulberry32: a small seeded generator, so the choices of a failing soak can be made again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const say = (what: string) => `${what} (SPOT_SOAK_SEED=${SEED})`;

/** Runs a verb, maybe killing it at a random moment; true when it was killed before it ended. */
async function maybeKilled(env: SpotEnv, b: Bench, rnd: () => number, args: string[]): Promise<boolean> {
  const p = startSpot(env, b.repo, ...args);
  if (rnd() >= KILL_CHANCE) return (await p.done).signal !== null;
  const delay = rnd() * KILL_WITHIN_MS;
  const ended = await Promise.race([
    p.done.then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), delay)),
  ]);
  if (ended) return false;
  try {
    Deno.kill(p.pid(), "SIGKILL");
  } catch {
    // It ended in between.
  }
  return (await p.done).signal === "SIGKILL";
}

/**
 * One kill the soak never leaves to chance: `spot verify` inside its check, the moment issue 31 found leaking a
 * pristine tree every time (5 of 5). The random kills cover every other moment.
 */
async function killInCheck(env: SpotEnv, b: Bench, id: string): Promise<boolean> {
  const p = startSpot(env, b.repo, "verify", "--id", id);
  await waitFor("the check to start", () => hasEvent(env, id, "step_start", /"step":"verify"/));
  Deno.kill(p.pid(), "SIGKILL");
  return (await p.done).signal === "SIGKILL";
}

async function status(env: SpotEnv, id: string): Promise<string> {
  return JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "state.json"))).status;
}

/** One round: the loop to `integrated`, recovering after every kill; returns the run id. */
async function round(env: SpotEnv, b: Bench, rnd: () => number, lane: number, k: number): Promise<string> {
  const episode = join(env.dir, `lane-${lane}-round-${k}.jsonl`);
  await writeEpisode(episode, [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "write", path: `notes/round-${lane}-${k}.md`, content: `round ${lane}.${k}\n` },
    { op: "sleep", ms: 300 },
  ]);
  const prepared = await spot(env, b.repo, "prepare", "--task", b.taskFile, ...REPLAY, "--model", episode);
  assert.equal(prepared.code, 0, say(prepared.stderr));
  const id = String(prepared.json.runId);
  const review = join(env.dir, `review-${id}.json`);
  let kills = 0;
  for (let step = 0; step < 30; step++) {
    const now = await status(env, id);
    if (now === "integrated") break;
    const killable = kills < MAX_KILLS_PER_ROUND ? rnd : () => 1;
    let killed = false;
    if (now === "prepared") killed = await maybeKilled(env, b, killable, ["run", "--id", id]);
    else if (now === "verifying" && lane === 0 && k === 0 && kills === 0) {
      killed = await killInCheck(env, b, id);
    } else if (now === "verifying") killed = await maybeKilled(env, b, killable, ["verify", "--id", id]);
    else if (now === "selfReviewing" || now === "reviewing") {
      const verification = JSON.parse(
        await Deno.readTextFile(join(env.stateDir, "runs", id, "verification.json")),
      );
      assert.equal(verification.passed, true, say(`round ${lane}.${k} failed its checks`));
      await writeJson(review, {
        schemaVersion: 1,
        verdict: "approve",
        diffSha256: verification.diffSha256,
        findings: [],
        verificationGaps: [],
        summary: "ok",
      });
      const approve = await spot(
        env,
        b.repo,
        "approve",
        "--id",
        id,
        "--review",
        review,
        "--message",
        `Round ${lane}.${k}`,
      );
      assert.equal(approve.code, 0, say(approve.stderr));
    } else if (now === "committed") killed = await maybeKilled(env, b, killable, ["integrate", "--id", id]);
    else assert.fail(say(`round ${lane}.${k} (${id}) is ${now}`));
    if (killed || ["running", "failed"].includes(await status(env, id))) {
      kills++;
      const recover = await spot(env, b.repo, "recover", "--id", id);
      assert.equal(recover.code, 0, say(recover.stderr));
    }
  }
  assert.equal(await status(env, id), "integrated", say(`round ${lane}.${k} (${id}) never landed`));
  assert.equal((await spot(env, b.repo, "report", "--id", id)).code, 0);
  const cleanup = await spot(env, b.repo, "cleanup", "--id", id);
  assert.equal(cleanup.code, 0, say(cleanup.stderr));
  return id;
}

async function lane(env: SpotEnv, n: number): Promise<Bench> {
  const b = await bench(env, `lane-${n}`);
  const task = JSON.parse(await Deno.readTextFile(b.taskFile));
  // A check that takes a moment, so a kill of verify or integrate can land inside it.
  await writeJson(b.taskFile, {
    ...task,
    allowedPaths: ["add.ts", "notes/**"],
    verification: [{
      argv: ["sh", "-c", "sleep 0.4; grep -rq --include=*.ts 'a + b' ."],
      timeoutSeconds: 60,
    }],
  });
  return b;
}

async function dirEntries(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) out.push(e.name);
  } catch {
    // Never made.
  }
  return out.sort();
}

Deno.test(`soak: ${LANES} lanes, ${ROUNDS} rounds each, kill -9 of run, verify and integrate at random moments (seed ${SEED})`, async () => {
  const env = await spotEnv({ maxConcurrentRuns: LANES });
  const rnd = random(SEED);
  const benches = await Promise.all(Array.from({ length: LANES }, (_, n) => lane(env, n)));
  // Each lane draws from its own generator, seeded from the one seed: the lanes' timing cannot change the draws.
  const seeds = benches.map(() => Math.floor(rnd() * 2 ** 32));
  const ids = await Promise.all(benches.map(async (b, n) => {
    const own = random(seeds[n]);
    const out: string[] = [];
    for (let k = 0; k < ROUNDS; k++) out.push(await round(env, b, own, n, k));
    return out;
  }));

  // Every state file reads, and the index (as `spot list` reads it) agrees with the run directories.
  const dirs = await dirEntries(join(env.stateDir, "runs"));
  const states = new Map<string, string>();
  for (const d of dirs) {
    states.set(d, JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", d, "state.json"))).status);
  }
  const list = await spot(env, benches[0].repo, "list", "--all");
  const listed = new Map(
    (list.json.runs as { runId: string; status: string }[]).map((r) => [r.runId, r.status]),
  );
  assert.deepEqual([...listed].sort(), [...states].sort(), say("the index and the run directories disagree"));
  assert.deepEqual(dirs, ids.flat().sort());
  for (const [n, b] of benches.entries()) {
    // Every round landed exactly once: one commit with its approved message on the branch. (Not the note it
    // writes: a worker killed between its two writes leaves add.ts alone, and recover verifies and lands that.)
    const subjects = (await sh(b.repo, "git", "log", "--format=%s")).split("\n");
    for (let k = 0; k < ROUNDS; k++) {
      const landed = subjects.filter((s) => s === `Round ${n}.${k}`).length;
      assert.equal(landed, 1, say(`round ${n}.${k} landed ${landed} times`));
    }
    assert.equal(await sh(b.repo, "git", "status", "--porcelain"), "", say(`lane ${n}'s checkout is dirty`));
    assert.equal(
      await dirEntries(join(b.repo, ".git", "worktrees")).then((w) => w.length),
      0,
      say(`lane ${n}: git worktree entries left`),
    );
    assert.equal(
      await sh(b.repo, "git", "worktree", "list", "--porcelain").then((t) =>
        t.split("\n").filter((l) => l.startsWith("worktree ")).length
      ),
      1,
      say(`lane ${n}: git worktree list names more than the checkout`),
    );
    assert.equal(
      await Deno.stat(join(b.repo, ".git", "index.lock")).catch(() => null),
      null,
      say("a stale index.lock"),
    );
  }
  // No lock is held by anyone.
  for (const d of dirs) {
    const lock = await probeRunLock(join(env.stateDir, "runs", d, ".lock"));
    assert.ok(lock, say(`run ${d}'s lock is held`));
    lock.release();
  }
  // Nothing is left under the cache dir: no pristine tree, no worktree (every round was cleaned up).
  assert.deepEqual(await dirEntries(join(env.dir, "cache", "pristine")), [], say("a pristine tree was left"));
  assert.deepEqual(await dirEntries(join(env.dir, "cache", "worktrees")), [], say("a worktree was left"));
  for (const d of dirs) {
    assert.deepEqual(
      await dirEntries(join(env.stateDir, "runs", d, "leases")),
      [],
      say(`run ${d} kept a lease`),
    );
  }
  await Deno.remove(env.dir, { recursive: true });
});
