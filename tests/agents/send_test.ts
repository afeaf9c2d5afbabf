/** `spot agent send`: a follow-up turn that resumes the worker's own session, in the same run. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv } from "../helpers.ts";
import { demoScenario, FIXED_ADD } from "../scenario.ts";
import { pollUntilSettled, startArgs } from "./agent_helpers.ts";

const code = (r: { json: Record<string, unknown> }) => (r.json.error as { code: string } | undefined)?.code;

Deno.test("agent send resumes the worker's session in a new turn of the same run, refused while it runs", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "say", text: "Fixed add()." },
    { op: "sleep", ms: 1500, phase: "follow-up" },
    { op: "write", path: "NOTES.md", content: "why\n", phase: "follow-up" },
    { op: "usage", input: 50, output: 5, costUsd: 0.002, phase: "follow-up" },
    { op: "say", text: "Wrote the notes.", phase: "follow-up" },
  ]);
  const r = await spot(env, sc.repo, ...startArgs("fix", sc));
  assert.equal(r.code, 0, r.stderr);
  const runDir = String(r.json.runDir);
  assert.match(await pollUntilSettled(env, sc.repo, "fix"), /^STATUS=OK .* 12B rc=0 /);
  await Deno.writeTextFile(join(env.dir, "msg.md"), "Now write NOTES.md explaining the fix.\n");
  const sent = await spot(env, sc.repo, "agent", "send", "fix", join(env.dir, "msg.md"));
  assert.equal(sent.code, 0, sent.stderr);
  assert.equal(sent.json.runId, r.json.runId, "a follow-up is a turn of the same run");
  assert.equal(sent.json.turn, 2);
  // While the follow-up runs, another send (and a start) of the name is refused.
  const busy = await spot(env, sc.repo, "agent", "send", "fix", "again");
  assert.equal(busy.code, 5, busy.stderr);
  assert.equal(code(busy), "AGENT_RUNNING");
  const line = await pollUntilSettled(env, sc.repo, "fix");
  // Only this turn counts: its text, its cost, its one usage report.
  assert.match(line, /^STATUS=OK \S+ \d+s 16B rc=0 terminal=stop model=\S+ cost=\$0\.0020 turns=1$/);
  assert.equal(await Deno.readTextFile(join(runDir, "result.md")), "Wrote the notes.\n");
  const events = (await Deno.readTextFile(join(runDir, "events.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const sessions = events.filter((e) => e.type === "worker_start").map((e) => e.sessionId);
  assert.equal(sessions.length, 2);
  assert.equal(sessions[1], sessions[0], "the follow-up did not resume the first turn's session");
  assert.equal(sessions[0], sent.json.sessionId);
  // The worker's session holds both turns' prompts, the second being the message sent.
  const kept = (await Deno.readTextFile(join(runDir, "replay-session", `${sessions[0]}.jsonl`))).trim()
    .split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(kept.map((k) => k.phase), ["run", "follow-up"]);
  assert.equal(kept[1].prompt, "Now write NOTES.md explaining the fix.\n");
  const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  assert.equal(state.status, "verifying");
  assert.deepEqual(
    state.transitions.map((t: { to: string }) => t.to).slice(-3),
    ["verifying", "running", "verifying"],
  );
  assert.equal(await Deno.readTextFile(join(state.worktreePath, "NOTES.md")), "why\n");
  assert.equal(
    await Deno.readTextFile(join(state.worktreePath, "add.ts")),
    FIXED_ADD,
    "not the same worktree",
  );
  await spot(env, sc.repo, "agent", "stop", "fix");
});

Deno.test("agent send refuses a worker whose CLI cannot resume a session with CAPABILITY_MISMATCH", async () => {
  // A claude-adapter profile whose binary is `true`: the turn ends at once, its run keeps adapter "claude".
  const env = await spotEnv({
    profiles: {
      "claude-shim": { adapter: "claude", provider: "anthropic", model: "claude-x", binary: "/bin/true" },
    },
  });
  const sc = await demoScenario(env.dir);
  const r = await spot(
    env,
    sc.repo,
    "agent",
    "start",
    "c1",
    "--task",
    sc.taskFile,
    "--profile",
    "claude-shim",
    "--sandbox",
    "none",
  );
  assert.equal(r.code, 0, r.stderr);
  await pollUntilSettled(env, sc.repo, "c1");
  const sent = await spot(env, sc.repo, "agent", "send", "c1", "go on");
  assert.equal(sent.code, 2, sent.stderr);
  assert.equal(code(sent), "CAPABILITY_MISMATCH");
  assert.match(
    (sent.json.error as { message: string }).message,
    /^Cannot send to agent "c1": its claude worker cannot resume a session \(runs with --no-session-persistence/,
  );
  const none = await spot(env, sc.repo, "agent", "send", "nobody", "hi");
  assert.equal(code(none), "AGENT_NOT_FOUND");
});
