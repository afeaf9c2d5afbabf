import assert from "node:assert/strict";
import type { SelfTestReport } from "../sandbox/backends/seatbelt_result.ts";
import { factsKey, profileFingerprint, type SeatbeltFacts, seatbeltVerdict } from "./seatbelt_verdict.ts";

const PASS: SelfTestReport = { passed: true, failed: [], outcomes: [] };
const FAIL: SelfTestReport = {
  passed: false,
  failed: [{
    id: "net:other-port",
    kind: "contained",
    ok: false,
    detail: "a loopback port was reached (5000)",
  }],
  outcomes: [],
};
const HOST = {
  osVersion: "macOS 14.5 (23F79)",
  sandboxExec: "/usr/bin/sandbox-exec:1:2:3:4",
  deno: "/d:5 2.9.6",
  uid: 501,
};
const facts = (os: string, key: string | null = factsKey({ ...HOST, osVersion: os })): SeatbeltFacts => ({
  sandboxExec: "/usr/bin/sandbox-exec",
  osVersion: os,
  key,
});

/** A self-test that counts its runs and answers from a script. */
function scripted(...answers: SelfTestReport[]) {
  const calls: string[] = [];
  return {
    calls,
    selfTest: (sandboxExec: string) => {
      calls.push(sandboxExec);
      return Promise.resolve(answers[Math.min(calls.length - 1, answers.length - 1)]);
    },
  };
}

async function withCache(fn: (cacheDir: string) => Promise<void>) {
  const cacheDir = await Deno.makeTempDir();
  try {
    await fn(cacheDir);
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
}

const now = () => "2025-01-01T00:00:00.000Z";

Deno.test("seatbeltVerdict() runs the self-test once and remembers a pass for the same OS version", () =>
  withCache(async (cacheDir) => {
    const t = scripted(PASS);
    const first = await seatbeltVerdict(facts("macOS 14.5 (23F79)"), { cacheDir, now, selfTest: t.selfTest });
    assert.deepEqual([first.available, first.cached, first.osVersion], [true, false, "macOS 14.5 (23F79)"]);
    const again = await seatbeltVerdict(facts("macOS 14.5 (23F79)"), { cacheDir, now, selfTest: t.selfTest });
    assert.deepEqual([again.available, again.cached, again.testedAt], [true, true, now()]);
    assert.equal(t.calls.length, 1);
  }));

Deno.test("seatbeltVerdict() tests again when the OS version changes, and refuses if the new test fails", () =>
  withCache(async (cacheDir) => {
    const t = scripted(PASS, FAIL);
    await seatbeltVerdict(facts("macOS 14.5 (23F79)"), { cacheDir, now, selfTest: t.selfTest });
    const updated = await seatbeltVerdict(facts("macOS 14.6 (23G80)"), {
      cacheDir,
      now,
      selfTest: t.selfTest,
    });
    assert.equal(t.calls.length, 2, "an OS update runs the self-test again");
    assert.deepEqual([updated.available, updated.failedProbe], [false, "net:other-port"]);
    assert.match(updated.reason!, /on macOS 14\.6 \(23G80\): net:other-port: a loopback port was reached/);
  }));

Deno.test("seatbeltVerdict() never remembers a failure: the next use tests again", () =>
  withCache(async (cacheDir) => {
    const t = scripted(FAIL, PASS);
    const failed = await seatbeltVerdict(facts("v"), { cacheDir, now, selfTest: t.selfTest });
    const passed = await seatbeltVerdict(facts("v"), { cacheDir, now, selfTest: t.selfTest });
    assert.deepEqual([failed.available, passed.available, passed.cached, t.calls.length], [
      false,
      true,
      false,
      2,
    ]);
  }));

Deno.test("seatbeltVerdict() refuses without sandbox-exec, and keeps nothing when a fact cannot be read", () =>
  withCache(async (cacheDir) => {
    const t = scripted(PASS);
    const missing = await seatbeltVerdict({ sandboxExec: null, osVersion: "v", key: null }, {
      cacheDir,
      now,
      selfTest: t.selfTest,
    });
    assert.deepEqual([missing.available, missing.path, t.calls.length], [false, null, 0]);
    assert.match(missing.reason!, /sandbox-exec was not found/);
    await seatbeltVerdict(facts("v", null), { cacheDir, now, selfTest: t.selfTest });
    await seatbeltVerdict(facts("v", null), { cacheDir, now, selfTest: t.selfTest });
    assert.equal(t.calls.length, 2);
  }));

Deno.test("profileFingerprint() is the same for the same generator", () => {
  assert.match(profileFingerprint(), /^[0-9a-f]{16}$/);
  assert.equal(profileFingerprint(), profileFingerprint());
});

Deno.test("factsKey() changes with the OS version, sandbox-exec, deno and the user, and only with them", () => {
  const key = factsKey(HOST);
  assert.equal(factsKey({ ...HOST }), key);
  for (
    const change of [
      { osVersion: "macOS 14.5.1 (23F80)" },
      { sandboxExec: "/usr/bin/sandbox-exec:1:2:9:4" },
      {
        deno: "/d:5 2.9.7",
      },
      { uid: 502 },
    ]
  ) {
    assert.notEqual(factsKey({ ...HOST, ...change }), key, JSON.stringify(change));
  }
  assert.ok(key.includes(profileFingerprint()), "a new profile generator is a new key");
});
