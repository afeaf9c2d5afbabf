/** `spot agent start --redispatch-of`: a walled brief once more on the next profile, in the same rolled-back worktree. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv, writeEpisode } from "../helpers.ts";
import { BUGGY_ADD, demoScenario, FIXED_ADD } from "../scenario.ts";
import { pollUntilSettled } from "./agent_helpers.ts";

const QUOTA = "429 You exceeded your current quota, please check your plan and billing details";
const code = (r: { json: Record<string, unknown> }) => (r.json.error as { code: string } | undefined)?.code;

/** Replay profiles: `walls` writes half a fix and hits a quota wall; its fallback `fixes` does the work. */
async function wallEnv() {
  const probe = await spotEnv();
  const episodes = {
    walls: [
      { op: "write", path: "PARTIAL.md", content: "half\n" },
      { op: "sleep", ms: 300 },
      { op: "fail", message: QUOTA },
    ],
    fixes: [{ op: "write", path: "add.ts", content: FIXED_ADD }, { op: "say", text: "Fixed add()." }],
  };
  const files: Record<string, string> = {};
  for (const [name, lines] of Object.entries(episodes)) {
    files[name] = join(probe.dir, `${name}.jsonl`);
    await writeEpisode(files[name], lines);
  }
  const replay = (model: string, extra: Record<string, unknown> = {}) => ({
    adapter: "replay",
    provider: "replay",
    model,
    capabilities: ["text", "code", "tool-use"],
    ...extra,
  });
  const env = await spotEnv({
    profiles: {
      first: replay(files.walls, { fallbackProfiles: ["second"] }),
      second: replay(files.fixes),
      "walls-too": replay(files.walls),
    },
  });
  const sc = await demoScenario(env.dir);
  return { env, sc };
}

Deno.test("agent start --redispatch-of re-runs a walled task once on the next profile, in its rolled-back worktree", async () => {
  const { env, sc } = await wallEnv();
  const r = await spot(
    env,
    sc.repo,
    "agent",
    "start",
    "w",
    "--task",
    sc.taskFile,
    "--profile",
    "first",
    "--sandbox",
    "none",
  );
  assert.equal(r.code, 0, r.stderr);
  const walled = await pollUntilSettled(env, sc.repo, "w");
  assert.match(walled, /^STATUS=FAIL .*QUOTA/);
  const runDir = String(r.json.runDir);
  const state0 = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  assert.equal(await Deno.readTextFile(join(state0.worktreePath, "PARTIAL.md")), "half\n");

  // Something that did not hit a wall cannot be re-dispatched.
  const again = await spot(env, sc.repo, "agent", "start", "w2", "--redispatch-of", "nobody");
  assert.equal(code(again), "AGENT_NOT_FOUND");

  const re = await spot(env, sc.repo, "agent", "start", "w2", "--redispatch-of", "w");
  assert.equal(re.code, 0, re.stderr);
  assert.equal(re.json.runId, r.json.runId, "a re-dispatch runs in the walled agent's run");
  const line = await pollUntilSettled(env, sc.repo, "w2");
  assert.match(line, /^STATUS=OK \S+ \d+s 12B rc=0 terminal=stop model=replay:\S+\/fixes\.jsonl /);
  const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  assert.equal(state.profile, "second");
  assert.equal(state.worktreePath, state0.worktreePath, "not the same worktree");
  assert.equal(await Deno.readTextFile(join(state.worktreePath, "add.ts")), FIXED_ADD);
  // Rolled back before the second profile ran: the walled turn's partial file is gone.
  await assert.rejects(Deno.stat(join(state.worktreePath, "PARTIAL.md")));
  assert.equal(await Deno.readTextFile(join(sc.repo, "add.ts")), BUGGY_ADD);
  // The walled agent's own line is what it was.
  assert.equal((await spot(env, sc.repo, "agent", "poll", "w")).stdout.trim(), walled);
  for (const name of ["w", "w2"]) await spot(env, sc.repo, "agent", "stop", name);
});

Deno.test("a re-dispatch that walls again fails, and is not re-dispatched a second time", async () => {
  const { env, sc } = await wallEnv();
  const r = await spot(
    env,
    sc.repo,
    "agent",
    "start",
    "v",
    "--task",
    sc.taskFile,
    "--profile",
    "walls-too",
    "--sandbox",
    "none",
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(await pollUntilSettled(env, sc.repo, "v"), /QUOTA/);
  // walls-too has no fallback: a profile must be named.
  const none = await spot(env, sc.repo, "agent", "start", "v", "--redispatch-of", "v");
  assert.equal(code(none), "NO_ROUTABLE_PROFILE", none.stderr);
  const re = await spot(
    env,
    sc.repo,
    "agent",
    "start",
    "v",
    "--redispatch-of",
    "v",
    "--profile",
    "walls-too",
  );
  assert.equal(re.code, 0, re.stderr);
  assert.match(await pollUntilSettled(env, sc.repo, "v"), /^STATUS=FAIL .*QUOTA/);
  const twice = await spot(
    env,
    sc.repo,
    "agent",
    "start",
    "v3",
    "--redispatch-of",
    "v",
    "--profile",
    "first",
  );
  assert.equal(twice.code, 6, twice.stderr);
  assert.equal(code(twice), "STATE_INVALID");
  assert.match(
    (twice.json.error as { message: string }).message,
    /already a re-dispatch of "v", and a brief is re-dispatched once/,
  );
  // An agent that settled without a wall is not re-dispatched either.
  const ok = await spot(
    env,
    sc.repo,
    "agent",
    "start",
    "fine",
    "--task",
    sc.taskFile,
    "--profile",
    "second",
    "--sandbox",
    "none",
  );
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(await pollUntilSettled(env, sc.repo, "fine"), /^STATUS=OK/);
  const notWalled = await spot(env, sc.repo, "agent", "start", "fine2", "--redispatch-of", "fine");
  assert.equal(code(notWalled), "STATE_INVALID");
  assert.match((notWalled.json.error as { message: string }).message, /did not stop at a provider wall/);
  for (const name of ["v", "fine"]) await spot(env, sc.repo, "agent", "stop", name);
});
