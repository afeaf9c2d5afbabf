/** `spot agent start` and `spot run --detach`: back at once, the worker detached and still running. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, spot, spotEnv } from "../helpers.ts";
import { FIXED_ADD, prepareScenario } from "../scenario.ts";
import {
  groupMembers,
  pollUntilSettled,
  processAlive,
  REPLAY,
  slowScenario,
  startArgs,
} from "./agent_helpers.ts";

Deno.test("agent start returns while the worker runs, and the agent outlives the caller", async () => {
  const env = await spotEnv();
  const sc = await slowScenario(env.dir, 4000);
  const r = await spot(env, sc.repo, ...startArgs("fix-add", sc));
  assert.equal(r.code, 0, r.stderr);
  const { name, runId, pid, runDir } = r.json as { name: string; runId: string; pid: number; runDir: string };
  assert.equal(name, "fix-add");
  assert.equal(runDir, join(env.stateDir, "runs", runId));
  // The caller (the spot process that ran start) has exited; its driver has not, and owns its own group.
  assert.ok(processAlive(pid), "the driver is not running after start returned");
  assert.ok(groupMembers([pid]).includes(pid), "the driver does not lead its own process group");
  const line = (await spot(env, sc.repo, "agent", "poll", "fix-add")).stdout.trim();
  assert.match(line, /^RUNNING \d+s \d+B stale=\d+s$/);
  const settled = await pollUntilSettled(env, sc.repo, "fix-add");
  assert.match(
    settled,
    /^STATUS=OK OUTPUT=\S+result\.md \d+s 12B rc=0 terminal=stop model=\S+ cost=\$0\.0010 turns=1$/,
  );
  // The replay worker's model is the episode it played, named in full (not cut to "replay/fix-add.jsonl").
  assert.ok(settled.includes(` model=replay:${sc.episodeFile} `), settled);
  assert.equal(await Deno.readTextFile(join(runDir, "result.md")), "Fixed add().\n");
  const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  assert.equal(await Deno.readTextFile(join(state.worktreePath, "add.ts")), FIXED_ADD);
  assert.equal(state.status, "verifying", "the driver did not carry the run through spot's own run turn");
});

Deno.test("agent start refuses a bad name and a name that is still running", async () => {
  const env = await spotEnv();
  const sc = await slowScenario(env.dir, 5000);
  const bad = await spot(env, sc.repo, ...startArgs("-x", sc));
  assert.equal(bad.code, 2);
  const bad2 = await spot(env, sc.repo, ...startArgs("a.b", sc));
  assert.equal((bad2.json.error as { code: string }).code, "AGENT_NAME_INVALID");
  const first = await spot(env, sc.repo, ...startArgs("busy", sc));
  assert.equal(first.code, 0, first.stderr);
  const again = await spot(env, sc.repo, ...startArgs("busy", sc));
  assert.equal(again.code, 5, again.stderr);
  assert.equal((again.json.error as { code: string }).code, "AGENT_RUNNING");
  const stop = await spot(env, sc.repo, "agent", "stop", "busy");
  assert.equal(stop.code, 0, stop.stderr);
});

Deno.test("agent start with --task refuses a bad contract before anything starts", async () => {
  const env = await spotEnv();
  const sc = await slowScenario(env.dir, 10);
  await Deno.writeTextFile(sc.taskFile, JSON.stringify({ schemaVersion: 1, goal: "short" }));
  const r = await spot(env, sc.repo, ...startArgs("nope", sc));
  assert.equal(r.code, 2);
  assert.equal((r.json.error as { code: string }).code, "CONTRACT_INVALID");
  assert.equal((await spot(env, sc.repo, "agent", "ls")).stdout.trim(), "no agents");
});

Deno.test("run --detach drives a prepared run as a named agent", async () => {
  const env = await spotEnv();
  const sc = await slowScenario(env.dir, 1500);
  const runId = await prepareScenario(env, sc, "--sandbox", "none");
  const r = await spot(env, sc.repo, "run", "--id", runId, "--detach", "--name", "detached");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.runId, runId);
  assert.equal(r.json.name, "detached");
  assert.match(await pollUntilSettled(env, sc.repo, "detached"), /^STATUS=OK /);
  // A run that is no longer prepared cannot be detached again.
  const again = await spot(env, sc.repo, "run", "--id", runId, "--detach", "--name", "again");
  assert.equal((again.json.error as { code: string }).code, "STATE_INVALID");
});

Deno.test("agent start --brief runs the text in a worktree of --cwd and distills the final text", async () => {
  const env = await spotEnv();
  const repo = await makeRepo({ "notes.md": "# notes\n" }, env.dir);
  const episode = join(env.dir, "brief.jsonl");
  await Deno.writeTextFile(
    episode,
    [
      { op: "write", path: "notes.md", content: "# notes\n\nsummary\n" },
      { op: "say", text: "Summarised the notes." },
    ].map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  const r = await spot(
    env,
    env.dir,
    "agent",
    "start",
    "brief1",
    "--brief",
    "Summarise notes.md",
    "--cwd",
    repo,
    ...REPLAY,
    "--model",
    episode,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(await pollUntilSettled(env, repo, "brief1"), /^STATUS=OK /);
  const runDir = String(r.json.runDir);
  assert.equal(await Deno.readTextFile(join(runDir, "result.md")), "Summarised the notes.\n");
  const prompt = await Deno.readTextFile(join(runDir, "prompt-run-r0.md"));
  assert.match(prompt, /^Summarise notes\.md\n/);
  // The worker wrote in spot's worktree, never in the repository the user named.
  assert.equal(await Deno.readTextFile(join(repo, "notes.md")), "# notes\n");
  const outside = await spot(
    env,
    env.dir,
    "agent",
    "start",
    "brief2",
    "--brief",
    "x",
    "--cwd",
    env.dir,
    ...REPLAY,
    "--model",
    episode,
  );
  assert.equal((outside.json.error as { code: string }).code, "NOT_A_REPOSITORY");
});
