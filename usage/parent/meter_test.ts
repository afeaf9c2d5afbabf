import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type Agent,
  chunk,
  EXPECTED,
  fixtureLines,
  liveSession,
} from "../../tests/fixtures/parent/fixture.ts";
import { isSpotError } from "../../errors.ts";
import { meterThread, takeParentSnapshot } from "./meter.ts";
import type { AvailableSnapshot } from "./usage.ts";
import { usageDelta } from "./usage.ts";

const now = () => "2026-07-14T10:00:00.000Z";
const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

async function withHome(fn: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "spot-parent-" });
  try {
    await fn(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

const CODEX_ENV = (home: string) => ({ CODEX_HOME: home, CODEX_THREAD_ID: EXPECTED.codex.threadId });
const CLAUDE_ENV = (home: string) => ({
  CLAUDE_CONFIG_DIR: home,
  PARENT_THREAD_ID: EXPECTED.claude.threadId,
});
const CASES: [Agent, string, (home: string) => Record<string, string>][] = [
  ["codex", "codex", CODEX_ENV],
  ["claude", "claude-code", CLAUDE_ENV],
];

async function rejectsWith(p: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(p, (e) => isSpotError(e, "PARENT_METER_FAILED") && pattern.test(e.message));
}

for (const [agent, caller, env] of CASES) {
  Deno.test(`the ${caller} meter measures exactly what the session spent while its file grew`, async () => {
    await withHome(async (home) => {
      const lines = await fixtureLines(agent);
      const split = EXPECTED[agent].splitLine;
      const live = await liveSession(agent, home, chunk(lines, 0, split));
      const start = await takeParentSnapshot(caller, { env: envOf(env(home)), now }) as AvailableSnapshot;
      assert.equal(start.available, true);
      assert.equal(start.totalTokens, EXPECTED[agent].start.totalTokens);
      // The parent keeps working: lines arrive in pieces, and one is caught half-written.
      const middle = split + Math.floor((lines.length - split) / 2);
      await live.append(chunk(lines, split, middle) + lines[middle].slice(0, 25));
      const mid = await meterThread(start.agent, { threadId: start.threadId, source: "test" }, {
        env: envOf(env(home)),
        now,
      });
      assert.equal(mid.skippedLines, 0, "a torn last line is not read");
      assert.ok(mid.totalTokens >= start.totalTokens && mid.totalTokens < EXPECTED[agent].end.totalTokens);
      await live.append(lines[middle].slice(25) + "\n" + chunk(lines, middle + 1));
      const end = await meterThread(start.agent, { threadId: start.threadId, source: "test" }, {
        env: envOf(env(home)),
        now,
      });
      const { totalTokens, ...endUsage } = EXPECTED[agent].end;
      assert.deepEqual(end.usage, endUsage);
      assert.equal(end.totalTokens, totalTokens);
      assert.equal(
        usageDelta(start.usage, end.usage).totalTokens,
        EXPECTED[agent].end.totalTokens - EXPECTED[agent].start.totalTokens,
      );
    });
  });

  Deno.test(`the ${caller} meter refuses a thread id that matches two session files`, async () => {
    await withHome(async (home) => {
      const text = chunk(await fixtureLines(agent), 0);
      await liveSession(agent, home, text);
      const other = join(home, agent === "codex" ? "sessions/2026/07/15" : "projects/-home-dev-other");
      await Deno.mkdir(other, { recursive: true });
      const name = EXPECTED[agent].file.split("/").pop()!;
      await Deno.writeTextFile(join(other, name), text);
      await rejectsWith(
        takeParentSnapshot(caller, { env: envOf(env(home)), now }),
        /matches 2 session files/,
      );
    });
  });

  Deno.test(`the ${caller} meter says which thread it could not find`, async () => {
    await withHome(async (home) => {
      await liveSession(agent, home, chunk(await fixtureLines(agent), 0));
      const vars = { ...env(home), PARENT_THREAD_ID: "00000000-1111-2222-3333-444444444444" };
      if (agent === "codex") delete (vars as Record<string, string>).CODEX_THREAD_ID;
      await rejectsWith(
        takeParentSnapshot(caller, { env: envOf(vars), now, settleMs: 150 }),
        /no session file for thread "00000000-1111-2222-3333-444444444444" .*\(looked for 150 ms\)/,
      );
    });
  });

  Deno.test(`the ${caller} meter waits for a session file the parent has not flushed yet`, async () => {
    await withHome(async (home) => {
      const text = chunk(await fixtureLines(agent), 0);
      // Without the wait, a meter taken before the parent's first flush is refused.
      await rejectsWith(
        takeParentSnapshot(caller, { env: envOf(env(home)), now, settleMs: 0 }),
        /no session file for thread/,
      );
      const started = Date.now();
      const snapshot = takeParentSnapshot(caller, { env: envOf(env(home)), now, settleMs: 5_000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await liveSession(agent, home, text);
      const taken = await snapshot as AvailableSnapshot;
      assert.equal(taken.available, true);
      assert.equal(taken.totalTokens, EXPECTED[agent].end.totalTokens);
      assert.ok(Date.now() - started < 4_000, "found soon after it appeared, not at the end of the wait");
    });
  });
}

Deno.test("the codex meter refuses to run without a thread id", async () => {
  await withHome(async (home) => {
    await rejectsWith(
      takeParentSnapshot("codex", { env: envOf({ CODEX_HOME: home }), now }),
      /no thread id: set PARENT_THREAD_ID or CODEX_THREAD_ID/,
    );
  });
});

Deno.test("the codex meter refuses two different thread ids, and accepts the same one twice", async () => {
  await withHome(async (home) => {
    await liveSession("codex", home, chunk(await fixtureLines("codex"), 0));
    const both = { ...CODEX_ENV(home), PARENT_THREAD_ID: "019a0000-0000-7000-8000-000000000000" };
    await rejectsWith(takeParentSnapshot("codex", { env: envOf(both), now }), /name different threads/);
    const same = { ...CODEX_ENV(home), PARENT_THREAD_ID: EXPECTED.codex.threadId };
    assert.equal((await takeParentSnapshot("codex", { env: envOf(same), now })).available, true);
  });
});

Deno.test("the meter refuses a short thread id that could match someone else's session", async () => {
  await withHome(async (home) => {
    await liveSession("codex", home, chunk(await fixtureLines("codex"), 0));
    const env = envOf({ CODEX_HOME: home, CODEX_THREAD_ID: "8d41a7" });
    await rejectsWith(takeParentSnapshot("codex", { env, now }), /expected the session's full id/);
  });
});

Deno.test("the codex meter refuses a rollout whose session_meta names another thread", async () => {
  await withHome(async (home) => {
    const lines = await fixtureLines("codex");
    const meta = JSON.parse(lines[0]);
    meta.payload.id = "019affff-ffff-7fff-8fff-ffffffffffff";
    await liveSession("codex", home, chunk([JSON.stringify(meta), ...lines.slice(1)], 0));
    await rejectsWith(takeParentSnapshot("codex", { env: envOf(CODEX_ENV(home)), now }), /belongs to thread/);
  });
});

Deno.test("a cli caller with CODEX_THREAD_ID is metered as codex; without it, not at all", async () => {
  await withHome(async (home) => {
    await liveSession("codex", home, chunk(await fixtureLines("codex"), 0));
    const codex = await takeParentSnapshot("cli", { env: envOf(CODEX_ENV(home)), now });
    assert.equal(codex.agent, "codex");
    const bare = await takeParentSnapshot("cli", { env: envOf({ HOME: home }), now });
    assert.equal(bare.available, false);
  });
});

for (const caller of ["trae", "cursor", "pi-recursive", "workbuddy", "unknown"]) {
  Deno.test(`a parent named "${caller}" gets available:false with a reason, not a number`, async () => {
    const snap = await takeParentSnapshot(caller, {
      env: envOf({ CODEX_THREAD_ID: EXPECTED.codex.threadId }),
      now,
    });
    assert.equal(snap.available, false);
    assert.equal(snap.agent, caller);
    assert.ok(!snap.available && snap.reason.length > 10);
    assert.ok(!("usage" in snap));
  });
}

Deno.test("the claude-code meter adds the subagent transcripts kept beside the session", async () => {
  await withHome(async (home) => {
    const live = await liveSession("claude", home, chunk(await fixtureLines("claude"), 0));
    const subDir = join(live.path.replace(/\.jsonl$/, ""), "subagents");
    await Deno.mkdir(subDir, { recursive: true });
    const sub = {
      type: "assistant",
      isSidechain: true,
      message: {
        id: "msg_01SubAgent0001",
        usage: {
          input_tokens: 5,
          cache_creation_input_tokens: 900,
          cache_read_input_tokens: 0,
          output_tokens: 95,
        },
      },
    };
    await Deno.writeTextFile(join(subDir, "agent-3f2a.jsonl"), JSON.stringify(sub) + "\n");
    const snap = await takeParentSnapshot("claude-code", {
      env: envOf(CLAUDE_ENV(home)),
      now,
    }) as AvailableSnapshot;
    assert.equal(snap.files.length, 2);
    assert.equal(snap.totalTokens, EXPECTED.claude.end.totalTokens + 1000);
  });
});

Deno.test("the claude-code meter takes the session id Claude Code gives what it starts, and refuses two", async () => {
  await withHome(async (home) => {
    await rejectsWith(
      takeParentSnapshot("claude-code", { env: envOf({ CLAUDE_CONFIG_DIR: home }), now }),
      /no thread id: set PARENT_THREAD_ID or CLAUDE_CODE_SESSION_ID/,
    );
    const other = "00000000-1111-2222-3333-444444444444";
    await rejectsWith(
      takeParentSnapshot("claude-code", {
        env: envOf({ CLAUDE_CONFIG_DIR: home, CLAUDE_CODE_SESSION_ID: other }),
        now,
        settleMs: 0,
      }),
      new RegExp(`no session file for thread "${other}"`),
    );
    await rejectsWith(
      takeParentSnapshot("claude-code", {
        env: envOf({
          CLAUDE_CONFIG_DIR: home,
          PARENT_THREAD_ID: "a".repeat(8),
          CLAUDE_CODE_SESSION_ID: other,
        }),
        now,
      }),
      /PARENT_THREAD_ID "aaaaaaaa" and CLAUDE_CODE_SESSION_ID "0000.*" name different threads/,
    );
  });
});
