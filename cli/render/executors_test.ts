import assert from "node:assert/strict";
import type { ExecutorSeen } from "../../queue/item.ts";
import { renderExecutors } from "./executors.ts";

const NOW = Date.parse("2026-12-01T10:00:00Z");

function seen(name: string, over: Partial<ExecutorSeen> = {}): ExecutorSeen {
  return {
    name,
    host: "build-host",
    pid: 42,
    capacity: 4,
    profiles: ["replay", "pi-cheap"],
    sandbox: "os",
    state: "ready",
    startedAt: "2026-12-01T09:00:00Z",
    heartbeatAt: "2026-12-01T09:59:55Z",
    running: [],
    done: 3,
    heartbeatSeconds: 1,
    status: "alive",
    load: 1,
    ...over,
  };
}

Deno.test("renderExecutors() shows one aligned row per executor: load of capacity, heartbeat age, profiles", () => {
  const text = renderExecutors({
    where: "nats://127.0.0.1:4222",
    executors: [seen("e1"), seen("executor-two", { status: "stale", heartbeatAt: "2026-12-01T09:50:00Z" })],
  }, { nowMs: NOW });
  const lines = text.trimEnd().split("\n");
  assert.equal(lines.length, 3);
  assert.match(lines[0], /^NAME +STATUS +LOAD +HEARTBEAT +SANDBOX +PROFILES +HOST$/);
  assert.match(lines[1], /^e1 +alive +1\/4 +5s ago +os +replay,pi-cheap +build-host$/);
  assert.match(lines[2], /^executor-two +stale +1\/4 +10m ago/);
  assert.equal(lines[1].indexOf("alive"), lines[2].indexOf("stale"), "columns line up");
  assert.equal(renderExecutors({ where: "nats://q:4222", executors: [] }), "no executors on nats://q:4222\n");
});

Deno.test("renderExecutors() shows what another machine announced as text, never as a terminal's escapes", () => {
  const evil = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J";
  const text = renderExecutors({
    where: `nats://q${evil}`,
    executors: [seen(`e${evil}`, { host: `h${evil}`, profiles: [`p${evil}`] })],
  }, { nowMs: NOW, color: false });
  assert.ok(!text.includes("\x1b"), JSON.stringify(text));
  assert.ok(!renderExecutors({ where: `q${evil}`, executors: [] }).includes("\x1b"));
});
