/**
 * `spot agent poll` on the seed's synthetic cases, each through the CLI with
 * the exact line it must print. Numbers that move with the clock (the
 * elapsed time of a live agent) are written `{N}`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv } from "../helpers.ts";
import { groupMembers, processAlive } from "./agent_helpers.ts";
import { assistant, buildAgent, type Built, piRun, type SyntheticAgent } from "./synthetic.ts";

const M = "model=scripted/m1";
const tool = { type: "toolCall", id: "t1", name: "bash", arguments: { command: "ls" } };
const toolTurn = { ...assistant(null, "toolUse"), content: [tool] };
const toolEnd = { type: "tool_execution_end", toolCallId: "t1", toolName: "bash", result: { content: [] } };

interface Case {
  agent: SyntheticAgent;
  want: (b: Built) => string;
  /** The poll had to stop a live driver. */
  stops?: boolean;
}

const CASES: Record<string, Case> = {
  stop: {
    agent: {
      stream: piRun(assistant("All done.", "stop")),
      driver: "dead",
      rc: 0,
      startedAgoS: 100,
      endedAfterS: 42,
    },
    want: (b) => `STATUS=OK OUTPUT=${b.output} 42s 9B rc=0 terminal=stop ${M} cost=$0.0005 turns=1`,
  },
  error: {
    agent: {
      stream: piRun(assistant(null, "error", { errorMessage: "Upstream   Boom 500" })),
      driver: "dead",
      rc: 0,
      startedAgoS: 100,
      endedAfterS: 42,
    },
    want: (b) =>
      `STATUS=FAIL OUTPUT=${b.output} 42s ${b.bytes}B ERROR terminal=error ${M} cost=$0.0005 turns=1 cause:upstream boom 500`,
  },
  aborted: {
    agent: {
      stream: piRun(assistant("half", "aborted")),
      driver: "dead",
      rc: 0,
      startedAgoS: 100,
      endedAfterS: 7,
    },
    want: (b) =>
      `STATUS=FAIL OUTPUT=${b.output} 7s ${b.bytes}B terminal=aborted not-stop ${M} cost=$0.0005 turns=1`,
  },
  "prose quoting a stop reason": {
    agent: {
      stream: piRun(assistant('The old log said "stopReason":"error"; fixed.', "stop")),
      driver: "dead",
      rc: 0,
      startedAgoS: 100,
      endedAfterS: 5,
    },
    want: (b) => `STATUS=OK OUTPUT=${b.output} 5s 45B rc=0 terminal=stop ${M} cost=$0.0005 turns=1`,
  },
  "empty text": {
    agent: {
      stream: piRun(assistant(null, "stop")),
      driver: "dead",
      rc: 0,
      startedAgoS: 100,
      endedAfterS: 5,
    },
    want: (b) =>
      `STATUS=FAIL OUTPUT=${b.output} 5s ${b.bytes}B empty 0B terminal=stop ${M} cost=$0.0005 turns=1`,
  },
  "ends on tool use": {
    agent: { stream: piRun(toolTurn), driver: "dead", rc: 0, startedAgoS: 100, endedAfterS: 5 },
    want: (b) =>
      `STATUS=FAIL OUTPUT=${b.output} 5s ${b.bytes}B terminal=toolUse not-stop ${M} cost=$0.0005 turns=1`,
  },
  "intermediate tool use, then stop": {
    agent: {
      stream: piRun(assistant("Listed it.", "stop"), [{ type: "message_end", message: toolTurn }, toolEnd]),
      driver: "dead",
      rc: 0,
      startedAgoS: 100,
      endedAfterS: 9,
    },
    want: (b) => `STATUS=OK OUTPUT=${b.output} 9s 10B rc=0 terminal=stop ${M} cost=$0.0010 turns=2`,
  },
  "exit code": {
    agent: {
      stream: [{ type: "session", id: "s" }],
      driver: "dead",
      rc: 4,
      startedAgoS: 100,
      endedAfterS: 3,
      failure: "The worker changed files outside its worktree",
    },
    want: (b) =>
      `STATUS=FAIL OUTPUT=${b.output} 3s ${b.bytes}B exit rc=4 ${M} cost=$0.0000 turns=0 cause:the worker changed files outside its worktree`,
  },
  "rc 0 without a final message": {
    agent: {
      stream: [{ type: "session", id: "s" }],
      driver: "dead",
      rc: 0,
      startedAgoS: 100,
      endedAfterS: 3,
    },
    want: (b) =>
      `STATUS=FAIL OUTPUT=${b.output} 3s ${b.bytes}B died-mid-stream no-terminal ${M} cost=$0.0000 turns=0`,
  },
  "dead without a marker, past the grace": {
    agent: { stream: [{ type: "session", id: "s" }], driver: "dead", startedAgoS: 100, activityAfterS: 30 },
    want: (b) => `STATUS=FAIL OUTPUT=${b.output} 30s ${b.bytes}B no-rc ${M} cost=$0.0000 turns=0`,
  },
  "dead without a marker, within the grace": {
    agent: { stream: [{ type: "session", id: "s" }], driver: "dead", startedAgoS: 20, activityAfterS: 15 },
    want: () => "RUNNING settling",
  },
  "no pid": {
    agent: { driver: "none", startedAgoS: 10 },
    want: (b) => `STATUS=FAIL OUTPUT=${b.output} {N}s 0B no-pid model=scripted/m1 cost=$0.0000 turns=0`,
  },
  "broken handle": {
    agent: { driver: "none", startedAgoS: 10, noHandle: true },
    want: () => "STATUS=FAIL handle=broken",
  },
  "persisted line": {
    agent: {
      driver: "dead",
      rc: 0,
      startedAgoS: 10,
      persisted: "STATUS=OK OUTPUT=x 1s 1B rc=0 terminal=stop",
    },
    want: () => "STATUS=OK OUTPUT=x 1s 1B rc=0 terminal=stop",
  },
  running: {
    agent: { stream: [{ type: "session", id: "s" }], driver: "alive", startedAgoS: 60, activityAfterS: 50 },
    want: (b) => `RUNNING {N}s ${b.bytes}B stale={N}s`,
  },
  "past the wall clock": {
    agent: {
      stream: [{ type: "session", id: "s" }],
      driver: "alive",
      startedAgoS: 1000,
      activityAfterS: 999,
    },
    want: (b) =>
      `STATUS=FAIL OUTPUT=${b.output} {N}s ${b.bytes}B TIMEOUT wall=900s ${M} cost=$0.0000 turns=0`,
    stops: true,
  },
  stale: {
    agent: { stream: [{ type: "session", id: "s" }], driver: "alive", startedAgoS: 400 },
    want: (b) =>
      `STATUS=FAIL OUTPUT=${b.output} {N}s ${b.bytes}B STALL stale={N}s thr=300s ${M} cost=$0.0000 turns=0`,
    stops: true,
  },
  "stale inside a tool (threshold doubled)": {
    agent: {
      stream: [{ type: "session", id: "s" }, { type: "message_end", message: toolTurn }],
      driver: "alive",
      startedAgoS: 400,
    },
    want: (b) => `RUNNING {N}s ${b.bytes}B stale={N}s`,
  },
  "alive after its final message": {
    agent: {
      stream: piRun(assistant("Done.", "stop")),
      driver: "alive",
      startedAgoS: 100,
      resultAfterS: 50,
      activityAfterS: 50,
    },
    want: (b) => `STATUS=OK OUTPUT=${b.output} {N}s 5B rc=0 terminal=stop ${M} cost=$0.0005 turns=1`,
    stops: true,
  },
  "provider wall (balance)": {
    agent: {
      stream: [{ type: "session", id: "s" }, {
        type: "auto_retry_start",
        attempt: 1,
        errorMessage: "429 You exceeded your current quota, please check your plan and billing details",
      }],
      driver: "alive",
      startedAgoS: 30,
      activityAfterS: 29,
    },
    want: (b) =>
      `STATUS=FAIL OUTPUT=${b.output} {N}s ${b.bytes}B QUOTA ${M} cost=$0.0000 turns=0 cause:429 you exceeded your current quota, please check your plan and billing details`,
    stops: true,
  },
  "provider wall (rolling window)": {
    agent: {
      stream: [{ type: "session", id: "s" }, {
        type: "auto_retry_start",
        attempt: 1,
        errorMessage: "Usage limit reached; resets at 2026-12-02T10:00:00Z",
      }],
      driver: "alive",
      startedAgoS: 30,
      activityAfterS: 29,
    },
    want: (b) =>
      `STATUS=FAIL OUTPUT=${b.output} {N}s ${b.bytes}B QUOTA-WINDOW ${M} cost=$0.0000 turns=0 cause:usage limit reached; resets at 2026-12-02t10:00:00z`,
    stops: true,
  },
};

function matches(line: string, want: string): boolean {
  const pattern = want.split("{N}").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\d+");
  return new RegExp(`^${pattern}$`).test(line);
}

Deno.test("agent poll gives each of the seed's cases its exact line, and replays a settled one", async () => {
  const env = await spotEnv();
  const entries = Object.entries(CASES);
  const built = await Promise.all(
    entries.map(([, c], i) => buildAgent(env, `case${i}`, c.agent)),
  );
  const polls: string[] = [];
  // Four CLI processes at a time: the machine is shared.
  for (let i = 0; i < entries.length; i += 4) {
    const batch = built.slice(i, i + 4).map((b) => spot(env, env.dir, "agent", "poll", b.name));
    for (const r of await Promise.all(batch)) polls.push(r.stdout.trim() || r.stderr.trim());
  }
  const wrong: string[] = [];
  entries.forEach(([label, c], i) => {
    const want = c.want(built[i]);
    if (!matches(polls[i], want)) wrong.push(`${label}:\n  got  ${polls[i]}\n  want ${want}`);
  });
  assert.deepEqual(wrong, []);
  // A poll that had to stop a driver left no process in its group; the others were left alone.
  entries.forEach(([label, c], i) => {
    const pid = built[i].pid;
    if (c.agent.driver !== "alive" || pid === null) return;
    if (c.stops) assert.deepEqual(groupMembers([pid]), [], `${label}: the driver's group is still alive`);
    else assert.ok(processAlive(pid), `${label}: poll stopped a driver it should have left running`);
  });
  // Settled lines are persisted and replayed; an OK line distilled the final text.
  const stopCase = entries.findIndex(([l]) => l === "stop");
  assert.equal(await Deno.readTextFile(built[stopCase].output), "All done.\n");
  assert.equal(
    (await Deno.readTextFile(join(env.stateDir, "agents", built[stopCase].name, "status"))).trim(),
    polls[stopCase],
  );
  const wallCase = entries.findIndex(([l]) => l === "past the wall clock");
  const again = await spot(env, env.dir, "agent", "poll", built[wallCase].name, "--json");
  assert.equal(again.json.line, polls[wallCase]);
  assert.equal(again.json.terminal, true);
  for (const [i, b] of built.entries()) {
    if (b.pid !== null && entries[i][1].agent.driver === "alive") {
      await spot(env, env.dir, "agent", "stop", b.name);
    }
  }
  for (const b of built) {
    if (b.pid !== null && b.pid < 2_000_000_000) assert.deepEqual(groupMembers([b.pid]), []);
  }
});

Deno.test("agent poll of a name nobody registered is AGENT_NOT_FOUND", async () => {
  const env = await spotEnv();
  const r = await spot(env, env.dir, "agent", "poll", "ghost");
  assert.equal(r.code, 2);
  assert.equal((r.json.error as { code: string }).code, "AGENT_NOT_FOUND");
});
